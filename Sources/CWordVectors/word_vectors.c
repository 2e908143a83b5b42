#include "CWordVectors.h"

// Defined in word_vectors.S.
extern const unsigned char skillgate_word_vectors[];
extern const size_t skillgate_word_vectors_size;

const unsigned char *skillgate_word_vectors_bytes(void) { return skillgate_word_vectors; }
size_t skillgate_word_vectors_count(void) { return skillgate_word_vectors_size; }
