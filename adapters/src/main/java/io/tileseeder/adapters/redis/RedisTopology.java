package io.tileseeder.adapters.redis;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.BaseConfig;
import org.redisson.config.ClusterServersConfig;
import org.redisson.config.Config;
import org.redisson.config.ReadMode;
import org.redisson.config.SentinelServersConfig;
import org.redisson.config.SingleServerConfig;

/**
 * How a Redis deployment is reached, as operators run one: a single server, a master and replicas watched by
 * Sentinel, or a Redis Cluster. {@link #connect} makes the Redisson client; every read and write goes to a
 * master (never a replica, which may lag), so a client reads what it wrote.
 *
 * @param mode       how the nodes are to be read
 * @param nodes      {@code standalone}: the server; {@code sentinel}: the sentinels; {@code cluster}: some of the
 *                   cluster's nodes (the others are discovered)
 * @param masterName the name under which the sentinels watch the master ({@code sentinel} only)
 * @param username   the Redis servers' user, if they use ACLs
 * @param password   the Redis servers' password (in {@code sentinel} mode the sentinels' too)
 * @param database   the database number ({@code standalone} and {@code sentinel}; a cluster has only 0)
 */
public record RedisTopology(Mode mode, List<String> nodes, Optional<String> masterName, Optional<String> username,
                            Optional<String> password, OptionalInt database) {

    /** How the Redis deployment is run. */
    public enum Mode {
        /** One Redis server. */
        STANDALONE,
        /** A master and its replicas, whose current master the sentinels name; follows a failover. */
        SENTINEL,
        /** A Redis Cluster: keys spread over masters by hash slot, each master with its own replicas. */
        CLUSTER;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public RedisTopology {
        Objects.requireNonNull(mode, "mode");
        nodes = List.copyOf(nodes);
        Objects.requireNonNull(masterName, "masterName");
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(password, "password");
        Objects.requireNonNull(database, "database");
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("no Redis address");
        }
        if (mode == Mode.STANDALONE && nodes.size() > 1) {
            throw new IllegalArgumentException("a standalone Redis has one address, not " + nodes.size()
                    + " (for several, choose the sentinel or cluster mode)");
        }
        if (mode == Mode.SENTINEL && masterName.isEmpty()) {
            throw new IllegalArgumentException("the sentinel mode needs the name of the master the sentinels watch");
        }
        if (mode != Mode.SENTINEL && masterName.isPresent()) {
            throw new IllegalArgumentException("a master name is for the sentinel mode only, not " + mode);
        }
        if (mode == Mode.CLUSTER && database.isPresent() && database.getAsInt() != 0) {
            throw new IllegalArgumentException("a Redis Cluster has only database 0, not " + database.getAsInt());
        }
    }

    /**
     * The topology of {@code urls}: one URL, or several separated by commas, each
     * {@code redis://[[user]:password@]host[:port][/database]} ({@code rediss://} for TLS). Credentials and
     * database may be given on any of them; where several give them they must agree.
     *
     * @param masterName the master's name for {@code sentinel}; null or blank otherwise
     */
    public static RedisTopology of(Mode mode, String urls, String masterName) {
        List<String> nodes = new ArrayList<>();
        Optional<String> username = Optional.empty();
        Optional<String> password = Optional.empty();
        OptionalInt database = OptionalInt.empty();
        for (String part : urls.split(",")) {
            String url = part.strip();
            if (url.isEmpty()) {
                continue;
            }
            URI uri = URI.create(url);
            String scheme = uri.getScheme();
            if (!"redis".equals(scheme) && !"rediss".equals(scheme)) {
                throw new IllegalArgumentException("not a redis:// or rediss:// URL: " + url);
            }
            if (uri.getHost() == null) {
                throw new IllegalArgumentException("no host in Redis URL: " + url);
            }
            int defaultPort = mode == Mode.SENTINEL ? 26379 : 6379;
            nodes.add(scheme + "://" + uri.getHost() + ":" + (uri.getPort() < 0 ? defaultPort : uri.getPort()));
            String userInfo = uri.getRawUserInfo();
            if (userInfo != null && !userInfo.isEmpty()) {
                int colon = userInfo.indexOf(':');
                String user = colon < 0 ? "" : decode(userInfo.substring(0, colon));
                username = agree("user", username, user.isEmpty() ? Optional.empty() : Optional.of(user));
                password = agree("password", password, Optional.of(decode(colon < 0 ? userInfo
                        : userInfo.substring(colon + 1))));
            }
            String path = uri.getPath();
            if (path != null && path.length() > 1) {
                try {
                    int db = Integer.parseInt(path.substring(1));
                    if (database.isPresent() && database.getAsInt() != db) {
                        throw new IllegalArgumentException("the Redis URLs name different databases");
                    }
                    database = OptionalInt.of(db);
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("the path of a Redis URL is a database number: " + url, e);
                }
            }
        }
        Optional<String> master = Optional.ofNullable(masterName).map(String::strip).filter(name -> !name.isEmpty());
        return new RedisTopology(mode, nodes, master, username, password, database);
    }

    /** A single server at {@code url}. */
    public static RedisTopology standalone(String url) {
        return of(Mode.STANDALONE, url, null);
    }

    /**
     * A client for this deployment; the caller shuts it down.
     *
     * @param watchdogTimeout the lease of a lock whose holder stops renewing it (dead pod)
     */
    public RedissonClient connect(Duration watchdogTimeout) {
        if (watchdogTimeout.isNegative() || watchdogTimeout.isZero()) {
            throw new IllegalArgumentException("watchdogTimeout must be positive: " + watchdogTimeout);
        }
        Config config = new Config();
        config.setLockWatchdogTimeout(watchdogTimeout.toMillis());
        BaseConfig<?> servers = switch (mode) {
            case STANDALONE -> {
                SingleServerConfig single = config.useSingleServer().setAddress(nodes.getFirst());
                database.ifPresent(single::setDatabase);
                yield single;
            }
            case SENTINEL -> {
                SentinelServersConfig sentinel = config.useSentinelServers().setMasterName(masterName.orElseThrow())
                        .setReadMode(ReadMode.MASTER);
                nodes.forEach(sentinel::addSentinelAddress);
                database.ifPresent(sentinel::setDatabase);
                yield sentinel;
            }
            case CLUSTER -> {
                ClusterServersConfig cluster = config.useClusterServers().setReadMode(ReadMode.MASTER);
                nodes.forEach(cluster::addNodeAddress);
                yield cluster;
            }
        };
        username.ifPresent(servers::setUsername);
        password.ifPresent(servers::setPassword);
        return Redisson.create(config);
    }

    /** Where it connects, without credentials, for messages. */
    public String describe() {
        return mode + " " + String.join(",", nodes) + masterName.map(name -> " (master " + name + ")").orElse("");
    }

    /** Without the password. */
    @Override
    public String toString() {
        return "RedisTopology[" + describe() + "]";
    }

    private static Optional<String> agree(String what, Optional<String> before, Optional<String> now) {
        if (before.isPresent() && now.isPresent() && !before.equals(now)) {
            throw new IllegalArgumentException("the Redis URLs give different " + what + "s");
        }
        return before.isPresent() ? before : now;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
