"""Is WeasyPrint's system part (Pango) here? Say what to install instead of a traceback."""

import ctypes.util
import sys

NEEDED = {"pango-1.0": "libpango-1.0-0", "pangoft2-1.0": "libpangoft2-1.0-0",
          "harfbuzz": "libharfbuzz0b"}


def main() -> int:
    missing = [package for library, package in NEEDED.items()
               if ctypes.util.find_library(library) is None]
    if missing:
        print("printshop needs Pango for WeasyPrint. On Debian/Ubuntu:\n"
              f"  sudo apt-get install {' '.join(missing)} libharfbuzz-subset0\n"
              "(macOS: brew install pango)", file=sys.stderr)
        return 1
    try:
        import weasyprint  # noqa: F401
    except OSError as exc:
        print(f"printshop: WeasyPrint cannot load its system libraries: {exc}\n"
              "On Debian/Ubuntu: sudo apt-get install libpango-1.0-0 libpangoft2-1.0-0 "
              "libharfbuzz-subset0", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
