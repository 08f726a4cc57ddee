package replay

import "os"

func exitWith(code int) { os.Exit(code) }
