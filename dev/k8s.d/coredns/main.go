// Command coredns is CoreDNS with only the plugins a cluster's DNS uses (the Corefile in dev/k8s.d/cluster.yaml):
// the full build also links every cloud provider's SDK, which takes minutes longer to compile and is never used
// here. The plugin order is CoreDNS's own (core/dnsserver/zdirectives.go), reduced to these plugins.
package main

import (
	"github.com/coredns/coredns/core/dnsserver"
	"github.com/coredns/coredns/coremain"

	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/loadbalance"
	_ "github.com/coredns/coredns/plugin/loop"
	_ "github.com/coredns/coredns/plugin/metrics"
	_ "github.com/coredns/coredns/plugin/ready"
	_ "github.com/coredns/coredns/plugin/reload"
)

func init() {
	dnsserver.Directives = []string{"reload", "ready", "health", "prometheus", "errors", "loadbalance", "cache",
		"kubernetes", "loop"}
}

func main() { coremain.Run() }
