package io.tileseeder.adapters;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Ports for the servers a test starts in other processes (a coordinator, MinIO, Redis), which must be told their port
 * before they bind it.
 *
 * <p>Asking the kernel for one ({@code new ServerSocket(0)}) and closing it is not enough: the kernel may hand the
 * same port out again at once, to the next such call or to any outgoing connection, since that port is in the
 * ephemeral range. A coordinator given one port twice, for its API and its management interface, binds both servers
 * to one socket, and Vert.x then shares the connections between them: some API requests get the management
 * interface's 404. So ports come from below the ephemeral range (Linux's starts at 32768) and above every fixed port
 * of the dev services (Redis Cluster's bus ports end at 17002), each handed out once per test JVM, each checked free.
 */
public final class FreePorts {

    private static final int FIRST = 20_000;
    private static final int LAST = 25_999;
    private static int next = FIRST + ThreadLocalRandom.current().nextInt(LAST - FIRST + 1);
    private static int handedOut;

    private FreePorts() {
    }

    /** A loopback port free now and never returned before by this JVM. */
    public static synchronized int next() {
        while (handedOut <= LAST - FIRST) {
            int port = next;
            next = port == LAST ? FIRST : port + 1;
            handedOut++;
            if (free(port)) {
                return port;
            }
        }
        throw new IllegalStateException("every port from " + FIRST + " to " + LAST + " was handed out already");
    }

    private static boolean free(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}
