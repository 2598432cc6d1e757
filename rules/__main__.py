import sys

from .cli import main
from .errors import GameDefinitionError

try:
    sys.exit(main())
except GameDefinitionError as e:  # a broken install: say so, without a traceback
    print(f"python -m rules: {e}", file=sys.stderr)
    sys.exit(2)
