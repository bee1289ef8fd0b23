from pywall.cli import main

raise SystemExit(main())
