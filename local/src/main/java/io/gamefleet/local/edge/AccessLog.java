package io.gamefleet.local.edge;

import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.function.Consumer;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Response;

/**
 * One line per request, as API Gateway's access log has them: time, method, path, the operation
 * (the route's, or what else served it), status, milliseconds from the first byte, and the caller
 * (the signer's ARN; {@code -} when unsigned). A request an outage held and dropped has
 * {@code dropped} for its status ({@link Outage}).
 * <pre>10:00:01.234 POST /game-server-groups/arena/claim ClaimGameServer 200 12 ms arn:aws:sts::000000000000:assumed-role/...</pre>
 */
final class AccessLog implements RequestLog {
    static final String OPERATION = "gamefleet.operation";
    static final String CALLER = "gamefleet.caller";
    static final String DROPPED = "gamefleet.dropped";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final Clock clock;
    private final Consumer<String> out;

    AccessLog(Clock clock, Consumer<String> out) {
        this.clock = clock;
        this.out = out;
    }

    @Override
    public void log(Request request, Response response) {
        long millis = (System.nanoTime() - request.getBeginNanoTime()) / 1_000_000;
        Object operation = request.getAttribute(OPERATION);
        Object caller = request.getAttribute(CALLER);
        out.accept(TIME.format(clock.instant()) + " " + request.getMethod() + " "
                + HttpEdge.printable(InstanceMetadataService.logged(String.valueOf(request.getHttpURI().getPath()))) + " "
                + (operation == null ? "-" : operation) + " "
                + (request.getAttribute(DROPPED) != null ? "dropped" : String.valueOf(response.getStatus())) + " "
                + millis + " ms "
                + (caller == null ? "-" : caller));
    }
}
