#ifndef SKILLGATE_CWORDVECTORS_H
#define SKILLGATE_CWORDVECTORS_H
#include <stddef.h>

/// The built-in static word-vector table (data/word-vectors.bin, assembled into the executable's
/// read-only data by word_vectors.S; format in Sources/SkillGateSkills/WordVectors/WordVectorTable.swift).
const unsigned char *skillgate_word_vectors_bytes(void);

/// The table's size in bytes.
size_t skillgate_word_vectors_count(void);

#endif
