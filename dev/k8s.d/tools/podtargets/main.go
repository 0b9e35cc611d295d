// Command podtargets answers Prometheus's HTTP service discovery with the pods of its own namespace that match a
// label selector: one target per container port of a given name, labelled namespace, pod and component, as the
// chart's PodMonitor has the prometheus-operator label them. Debian's Prometheus is built without Kubernetes
// discovery; in the cluster tests this runs beside it, in the same pod, and reads the pods with its service
// account.
package main

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"
)

const account = "/var/run/secrets/kubernetes.io/serviceaccount/"

type pod struct {
	Metadata struct {
		Name   string            `json:"name"`
		Labels map[string]string `json:"labels"`
	} `json:"metadata"`
	Spec struct {
		Containers []struct {
			Ports []struct {
				Name          string `json:"name"`
				ContainerPort int    `json:"containerPort"`
			} `json:"ports"`
		} `json:"containers"`
	} `json:"spec"`
	Status struct {
		Phase string `json:"phase"`
		PodIP string `json:"podIP"`
	} `json:"status"`
}

type group struct {
	Targets []string          `json:"targets"`
	Labels  map[string]string `json:"labels"`
}

func main() {
	listen := flag.String("listen", "127.0.0.1:9091", "address to answer on")
	selector := flag.String("selector", "", "label selector of the pods")
	port := flag.String("port", "", "name of the container port to scrape")
	flag.Parse()
	if *selector == "" || *port == "" {
		log.Fatal("podtargets: -selector and -port are required")
	}
	namespace, err := os.ReadFile(account + "namespace")
	if err != nil {
		log.Fatalf("podtargets: no service account: %v", err)
	}
	ca, err := os.ReadFile(account + "ca.crt")
	if err != nil {
		log.Fatalf("podtargets: no service account CA: %v", err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(ca) {
		log.Fatal("podtargets: the service account CA holds no certificate")
	}
	api := &http.Client{Timeout: 10 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}}}
	list := "https://" + net.JoinHostPort(os.Getenv("KUBERNETES_SERVICE_HOST"), os.Getenv("KUBERNETES_SERVICE_PORT")) +
		"/api/v1/namespaces/" + string(namespace) + "/pods?labelSelector=" + url.QueryEscape(*selector)
	http.HandleFunc("/targets", func(w http.ResponseWriter, r *http.Request) {
		groups, err := targets(api, list, string(namespace), *port)
		if err != nil {
			log.Printf("podtargets: %v", err)
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(groups)
	})
	log.Fatal(http.ListenAndServe(*listen, nil))
}

func targets(api *http.Client, list, namespace, port string) ([]group, error) {
	token, err := os.ReadFile(account + "token") // projected: re-read, it is rotated
	if err != nil {
		return nil, err
	}
	request, err := http.NewRequest(http.MethodGet, list, nil)
	if err != nil {
		return nil, err
	}
	request.Header.Set("Authorization", "Bearer "+strings.TrimSpace(string(token)))
	response, err := api.Do(request)
	if err != nil {
		return nil, err
	}
	defer response.Body.Close()
	if response.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("listing pods: %s", response.Status)
	}
	var pods struct{ Items []pod }
	if err := json.NewDecoder(response.Body).Decode(&pods); err != nil {
		return nil, fmt.Errorf("listing pods: %v", err)
	}
	groups := []group{}
	for _, p := range pods.Items {
		if p.Status.PodIP == "" || p.Status.Phase == "Succeeded" || p.Status.Phase == "Failed" {
			continue
		}
		for _, c := range p.Spec.Containers {
			for _, cp := range c.Ports {
				if cp.Name != port {
					continue
				}
				groups = append(groups, group{
					Targets: []string{net.JoinHostPort(p.Status.PodIP, fmt.Sprint(cp.ContainerPort))},
					Labels: map[string]string{"namespace": namespace, "pod": p.Metadata.Name,
						"component": p.Metadata.Labels["app.kubernetes.io/component"]},
				})
			}
		}
	}
	return groups, nil
}
