#ifndef SKILLGATE_COPENSSL_SHIM_H
#define SKILLGATE_COPENSSL_SHIM_H
#include <openssl/sha.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#endif
