package main

import "runtime/debug"

// debugSetTraceback makes the panic print every goroutine, as SIGQUIT does.
func debugSetTraceback() { debug.SetTraceback("all") }
