package io.tileseeder.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * kubectl and helm against the cluster dev/k8s runs, as dev/k8s-test hands them over in the environment:
 * SEEDER_E2E_KUBECTL, SEEDER_E2E_HELM, SEEDER_E2E_KUBECONFIG (the tests run inside the node's network, where the API
 * server is on 127.0.0.1:6443), SEEDER_E2E_NAMESPACE and SEEDER_E2E_RELEASE (the product's Helm release),
 * and SEEDER_E2E_CHART (its chart; upgrades keep the values it was installed with).
 */
final class Kube {

    static final String DEPS = "seeder-deps";
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(6);

    final String namespace = env("SEEDER_E2E_NAMESPACE");
    final String release = env("SEEDER_E2E_RELEASE");
    private final String kubectl = env("SEEDER_E2E_KUBECTL");
    private final String helm = env("SEEDER_E2E_HELM");
    private final String kubeconfig = env("SEEDER_E2E_KUBECONFIG");
    private final String chart = env("SEEDER_E2E_CHART");

    static String env(String name) {
        String value = System.getenv(name);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException(name + " is not set: run these tests through dev/k8s-test");
        }
        return value;
    }

    /** kubectl ARGS in the product's namespace; its output. Fails with kubectl's error when it fails. */
    String kubectl(String... args) {
        return in(namespace, args);
    }

    /** kubectl ARGS in the dependencies' namespace. */
    String deps(String... args) {
        return in(DEPS, args);
    }

    /** kubectl ARGS in {@code namespace}. */
    String in(String namespace, String... args) {
        List<String> command = new ArrayList<>(List.of(kubectl, "--kubeconfig", kubeconfig, "-n", namespace));
        command.addAll(Arrays.asList(args));
        return run(command);
    }

    /**
     * {@code helm upgrade} of the release with the values it was installed with plus {@code sets}
     * (key=value each), waiting for the rollout.
     */
    String upgrade(String... sets) {
        List<String> extra = new ArrayList<>();
        for (String set : sets) {
            extra.add("--set");
            extra.add(set);
        }
        return upgradeWith(extra);
    }

    /** {@code helm upgrade} as {@link #upgrade}, setting {@code key} to the content of {@code file}. */
    String upgradeWithFile(String key, Path file) {
        return upgradeWith(List.of("--set-file", key + "=" + file));
    }

    private String upgradeWith(List<String> extra) {
        List<String> command = new ArrayList<>(List.of(helm, "--kubeconfig", kubeconfig, "-n", namespace, "upgrade",
                release, chart, "--reuse-values", "--wait", "--timeout", "5m"));
        command.addAll(extra);
        return run(command);
    }

    /** The ClusterIP of a Service. */
    String serviceIp(String namespace, String service) {
        return in(namespace, "get", "service", service, "-o", "jsonpath={.spec.clusterIP}");
    }

    /** Names of the pods of a component of the release (coordinator, worker) that are not being deleted. */
    List<String> pods(String component) {
        return live(namespace, component(component)).stream().map(Pod::name).toList();
    }

    /**
     * The component's pods, one line each: name, restarts of its first container, and why that container last
     * ended (empty if it never did).
     */
    String restarts(String component) {
        return kubectl("get", "pods", "-l", component(component), "-o",
                "jsonpath={range .items[*]}{.metadata.name} {.status.containerStatuses[0].restartCount} "
                        + "{.status.containerStatuses[0].lastState.terminated.reason}{\"\\n\"}{end}");
    }

    /** Pods of the component that are Ready. */
    List<String> readyPods(String component) {
        return ready(namespace, component(component));
    }

    /** The Ready pods of {@code selector} in {@code namespace} that are not being deleted. */
    List<String> ready(String namespace, String selector) {
        return live(namespace, selector).stream().filter(Pod::ready).map(Pod::name).toList();
    }

    /** A pod: its name, its UID (a pod recreated under the same name, by a StatefulSet, has a new one), Ready. */
    record Pod(String name, String uid, boolean ready) {
    }

    /** The pods of {@code selector} in {@code namespace} that are not being deleted. */
    List<Pod> live(String namespace, String selector) {
        String out = in(namespace, "get", "pods", "-l", selector, "-o", "jsonpath={range .items[*]}{.metadata.name}|"
                + "{.metadata.uid}|{.status.conditions[?(@.type==\"Ready\")].status}|{.metadata.deletionTimestamp}"
                + "{\"\\n\"}{end}");
        List<Pod> pods = new ArrayList<>();
        for (String line : out.lines().toList()) {
            String[] fields = line.strip().split("\\|", -1);
            if (fields.length == 4 && !fields[0].isEmpty() && fields[3].isEmpty()) {
                pods.add(new Pod(fields[0], fields[1], fields[2].equals("True")));
            }
        }
        return pods;
    }

    /** The label selector of a component of the release. */
    static String component(String component) {
        return "app.kubernetes.io/component=" + component;
    }

    /**
     * Follows a pod's log into a file from now until its container ends ({@code kubectl logs -f}); the process, to
     * wait for, and the file.
     */
    Followed follow(String pod) throws IOException {
        Path file = Files.createTempFile("log-" + pod + "-", ".txt");
        Process process = new ProcessBuilder(kubectl, "--kubeconfig", kubeconfig, "-n", namespace, "logs", "-f", pod)
                .redirectErrorStream(true).redirectOutput(file.toFile()).start();
        return new Followed(pod, process, file);
    }

    record Followed(String pod, Process process, Path file) {
        /** The log, once the container ended (at most {@code wait}). */
        String awaitEnd(Duration wait) throws IOException, InterruptedException {
            if (!process.waitFor(wait.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("the log of " + pod + " did not end within " + wait);
            }
            return Files.readString(file);
        }
    }

    String podIp(String pod) {
        return kubectl("get", "pod", pod, "-o", "jsonpath={.status.podIP}");
    }

    String deployment(String component) {
        return release + "-" + component;
    }

    private static String run(List<String> command) {
        try {
            Path err = Files.createTempFile("kube-", ".err");
            try {
                Process process = new ProcessBuilder(command).redirectError(err.toFile()).start();
                process.getOutputStream().close();
                byte[] out = process.getInputStream().readAllBytes();
                if (!process.waitFor(COMMAND_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    throw new IllegalStateException(String.join(" ", command) + " did not end in " + COMMAND_TIMEOUT);
                }
                if (process.exitValue() != 0) {
                    throw new IllegalStateException(String.join(" ", command) + " exited with "
                            + process.exitValue() + ": " + Files.readString(err).strip());
                }
                return new String(out, StandardCharsets.UTF_8).strip();
            } finally {
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not run " + command.getFirst(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + command.getFirst(), e);
        }
    }
}
