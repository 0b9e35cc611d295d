package io.tileseeder.e2e;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The product's release as the tests reach it from inside the node's network: the cluster, the coordinators' API
 * with the write token of the chart's Secret, the tiles in MinIO and the jobs' events on Kafka.
 */
record Release(Kube kube, SeederApi api, Store store, Events events) {

    static Release connect() {
        Kube kube = new Kube();
        String tokens = decode(kube.kubectl("get", "secret", kube.release, "-o", "jsonpath={.data.tokens}"));
        String token = tokens.lines().map(line -> line.strip().split("\\s+"))
                .filter(fields -> fields.length == 3 && fields[1].equals("write")).map(fields -> fields[2])
                .findFirst().orElseThrow(() -> new IllegalStateException("no write token in the chart's Secret"));
        SeederApi api = new SeederApi(kube.serviceIp(kube.namespace, kube.deployment("coordinator")), 8080, token);
        Store store = new Store("http://" + kube.serviceIp(Kube.DEPS, "minio") + ":9000",
                decode(kube.deps("get", "secret", "minio", "-o", "jsonpath={.data.access-key}")),
                decode(kube.deps("get", "secret", "minio", "-o", "jsonpath={.data.secret-key}")), "tiles", "cache/");
        Events events = new Events(kube.serviceIp(Kube.DEPS, "kafka") + ":9092", "seeder.job-events");
        return new Release(kube, api, store, events);
    }

    private static String decode(String base64) {
        return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
    }
}
