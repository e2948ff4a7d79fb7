"""`python -m cardavia_client` is the `cardavia` command line."""

import sys

from cardavia_client.cli import main

sys.exit(main())
