package io.tileseeder.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** The Redis deployments of {@code dev/services}, from the variables of {@code .dev/services.env}. */
public final class RedisTopologies {

    private RedisTopologies() {
    }

    public static String env(String name) {
        String value = System.getenv(name);
        assertThat(value).as(name + " (run 'dev/services up --redis-topologies' and source .dev/services.env)")
                .isNotBlank();
        return value;
    }

    /** The three-master Redis Cluster. */
    public static RedisTopology cluster() {
        return RedisTopology.of(RedisTopology.Mode.CLUSTER, env("SEEDER_REDIS_CLUSTER_NODES"), null);
    }

    /** The master and replica behind three sentinels. */
    public static RedisTopology sentinel() {
        return RedisTopology.of(RedisTopology.Mode.SENTINEL, env("SEEDER_REDIS_SENTINEL_NODES"),
                env("SEEDER_REDIS_SENTINEL_MASTER"));
    }

    /** The master's address as the first sentinel names it. */
    public static String master(RedisTopology topology) throws IOException, InterruptedException {
        return sentinel(topology, "SENTINEL", "GET-MASTER-ADDR-BY-NAME",
                RedisTopologies.env("SEEDER_REDIS_SENTINEL_MASTER")).replace('\n', ':');
    }

    /** A command to the first sentinel, through redis-cli; its answer. */
    public static String sentinel(RedisTopology topology, String... command) throws IOException, InterruptedException {
        URI sentinel = URI.create(topology.nodes().getFirst());
        List<String> args = new ArrayList<>(List.of("redis-cli", "-h", sentinel.getHost(), "-p",
                Integer.toString(sentinel.getPort())));
        args.addAll(List.of(command));
        Process cli = new ProcessBuilder(args).redirectErrorStream(true).start();
        String out = new String(cli.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(cli.waitFor()).as(String.join(" ", args) + ": " + out).isZero();
        assertThat(out).as(String.join(" ", args)).doesNotStartWith("ERR");
        return out;
    }
}
