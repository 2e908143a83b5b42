// The built-in word-vector table, included byte for byte into read-only data: no copy at start, and
// only the pages a lookup touches count in the process's memory. `.incbin` finds the file through the
// target's header search path (data/, Package.swift). After regenerating the table
// (scripts/word-vectors/build.sh), touch this file so the build picks the new bytes up.
#if defined(__APPLE__)
    .section __TEXT,__const
    .p2align 4
    .globl _skillgate_word_vectors
_skillgate_word_vectors:
    .incbin "word-vectors.bin"
_skillgate_word_vectors_end:
    .p2align 3
    .globl _skillgate_word_vectors_size
_skillgate_word_vectors_size:
    .quad _skillgate_word_vectors_end - _skillgate_word_vectors
#else
    .section .rodata.skillgate_word_vectors,"a",@progbits
    .balign 16
    .globl skillgate_word_vectors
skillgate_word_vectors:
    .incbin "word-vectors.bin"
skillgate_word_vectors_end:
    .balign 8
    .globl skillgate_word_vectors_size
    .type skillgate_word_vectors_size, @object
skillgate_word_vectors_size:
    .quad skillgate_word_vectors_end - skillgate_word_vectors
    .size skillgate_word_vectors_size, 8
    .section .note.GNU-stack,"",@progbits
#endif
