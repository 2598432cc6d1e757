import os
import sys

from .cli import main
from .errors import GameDefinitionError

try:
    sys.exit(main())
except GameDefinitionError as e:  # a broken install: say so, without a traceback
    print(f"python -m rules: {e}", file=sys.stderr)
    sys.exit(2)
except BrokenPipeError:
    # the reader left (`python -m rules moves ... | head`): stop quietly, as Unix tools do.
    # stdout goes to devnull so that the flush at exit does not fail a second time.
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(141)  # 128 + SIGPIPE, what a shell reports for a tool killed by the pipe
