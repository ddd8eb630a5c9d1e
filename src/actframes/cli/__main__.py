"""``python -m actframes.cli ARGS`` is ``actframes ARGS``."""

from . import main

main()
