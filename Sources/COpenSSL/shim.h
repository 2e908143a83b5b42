#ifndef SKILLGATE_COPENSSL_SHIM_H
#define SKILLGATE_COPENSSL_SHIM_H
#include <openssl/sha.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

// SHA-256 of a short input (client tokens). SHA256_Init/Update/Final are deprecated in OpenSSL 3
// but skip the provider fetch of the EVP one-shot SHA256(): 0.26 µs instead of 2.2 µs per token here.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
static inline void sg_sha256(const void *data, size_t count, unsigned char *out) {
    SHA256_CTX context;
    SHA256_Init(&context);
    SHA256_Update(&context, data, count);
    SHA256_Final(out, &context);
}
#pragma clang diagnostic pop
#endif
