#ifndef SG_CODE_WARMING_SHIM_H
#define SG_CODE_WARMING_SHIM_H
// Code warming (decision 0054): the loaded objects' load addresses and build ids, and prefetching a list of code
// lines into the CPU's second-level cache. Header-only; the calls are glibc's and the compiler's.
#include <elf.h>
#include <malloc.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/// The layout of glibc's `struct dl_phdr_info` up to the fields used here (<link.h> declares it only under
/// _GNU_SOURCE, which Swift's Glibc module does not set).
struct sg_dl_phdr_info {
    Elf64_Addr dlpi_addr;
    const char *dlpi_name;
    const Elf64_Phdr *dlpi_phdr;
    Elf64_Half dlpi_phnum;
};

extern int dl_iterate_phdr(int (*callback)(struct sg_dl_phdr_info *info, size_t size, void *data), void *data);

/// One object mapped into the process: the main executable (empty name) or a shared library.
struct sg_loaded_object {
    uintptr_t base;              ///< where its first byte is mapped (the difference between file and memory addresses)
    const char *name;            ///< the path it was loaded from; "" for the main executable
    const uint8_t *build_id;     ///< the GNU build id note's bytes, in the mapped image; NULL when it has none
    uint32_t build_id_size;
    uintptr_t text_start;        ///< the executable segment's first and last address (memory), 0 when none
    uintptr_t text_end;
};

struct sg_loaded_objects_state {
    struct sg_loaded_object *out;
    int capacity;
    int count;
};

static inline int sg_loaded_objects_visit(struct sg_dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct sg_loaded_objects_state *state = (struct sg_loaded_objects_state *)data;
    if (state->count >= state->capacity) return 1;
    struct sg_loaded_object object;
    memset(&object, 0, sizeof object);
    object.base = (uintptr_t)info->dlpi_addr;
    object.name = info->dlpi_name ? info->dlpi_name : "";
    for (Elf64_Half i = 0; i < info->dlpi_phnum; i++) {
        const Elf64_Phdr *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_X) && object.text_start == 0) {
            object.text_start = object.base + ph->p_vaddr;
            object.text_end = object.text_start + ph->p_memsz;
        }
        if (ph->p_type != PT_NOTE || object.build_id) continue;
        const uint8_t *note = (const uint8_t *)(object.base + ph->p_vaddr);
        const uint8_t *end = note + ph->p_memsz;
        while (note + sizeof(Elf64_Nhdr) <= end) {
            const Elf64_Nhdr *header = (const Elf64_Nhdr *)note;
            const uint8_t *name = note + sizeof(Elf64_Nhdr);
            const uint8_t *desc = name + ((header->n_namesz + 3) & ~3u);
            if (desc + header->n_descsz > end) break;
            if (header->n_type == NT_GNU_BUILD_ID && header->n_namesz == 4 && memcmp(name, "GNU", 4) == 0) {
                object.build_id = desc;
                object.build_id_size = header->n_descsz;
                break;
            }
            note = desc + ((header->n_descsz + 3) & ~3u);
        }
    }
    state->out[state->count++] = object;
    return 0;
}

/// Fills `out` with up to `capacity` loaded objects, the main executable first; returns how many.
static inline int sg_loaded_objects(struct sg_loaded_object *out, int capacity) {
    struct sg_loaded_objects_state state = { out, capacity, 0 };
    dl_iterate_phdr(sg_loaded_objects_visit, &state);
    return state.count;
}

/// Prefetches each of `count` addresses into the second-level cache (`prefetcht1`: not the first-level data cache,
/// which the code does not use). A prefetch never faults; the addresses are code lines of mapped objects anyway.
static inline void sg_prefetch_lines(const uintptr_t *addresses, long count) {
    for (long i = 0; i < count; i++) __builtin_prefetch((const void *)addresses[i], 0, 2);
}

/// Returns the heap's free memory to the system (placing a table allocates a few hundred kilobytes for a moment).
static inline void sg_release_free_heap(void) { malloc_trim(0); }

#endif
