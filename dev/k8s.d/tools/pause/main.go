// Command pause is the process that holds a pod's namespaces (the sandbox image's entrypoint): it waits for
// SIGTERM or SIGINT and reaps the zombies of the processes it adopts as the pod's init.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	signals := make(chan os.Signal, 16)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT, syscall.SIGCHLD)
	for s := range signals {
		if s != syscall.SIGCHLD {
			return
		}
		reap()
	}
}

func reap() {
	for {
		var status syscall.WaitStatus
		if pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil); pid <= 0 || err != nil {
			return
		}
	}
}
