package io.gamefleet.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.gamefleet.catalog.FunctionAccess;
import io.gamefleet.catalog.Tables;
import java.util.Map;
import org.crac.Context;
import org.crac.Core;
import org.crac.Resource;

/**
 * Before Lambda SnapStart takes its snapshot, runs the handler's hot path once so that the
 * classes it loads and the code it JIT-compiles are in the snapshot: request decoding and
 * validation, the error encoding, and one DynamoDB read of a group that does not exist (the SDK's
 * marshalling, signing and HTTP client). Outside SnapStart the hook never fires.
 *
 * <p>The request names a group that validation refuses, so no handler ever reaches the store with
 * it: a write handler (DeleteGameServerGroup, say) primed with a valid name would act on a group
 * that someone did create under that name.
 */
final class SnapStartPriming implements Resource {
    private static final String NO_SUCH_GROUP = "gamefleet-snapstart-priming";
    private static final String INVALID_GROUP = "snapstart priming";
    private final ApiHandler handler;

    private SnapStartPriming(ApiHandler handler) {
        this.handler = handler;
    }

    static void register(ApiHandler handler) {
        // CRaC keeps resources weakly: the handler holds this one for as long as it lives.
        SnapStartPriming priming = new SnapStartPriming(handler);
        handler.priming = priming;
        Core.getGlobalContext().register(priming);
    }

    @Override
    public void beforeCheckpoint(Context<? extends Resource> context) {
        prime(handler);
    }

    @Override
    public void afterRestore(Context<? extends Resource> context) {
        // nothing to renew: SDK clients open connections on demand
    }

    /** A well-formed request that validation refuses (400) for its group name, before any store access. */
    static APIGatewayV2HTTPEvent request() {
        return APIGatewayV2HTTPEvent.builder().withBody("{}").withIsBase64Encoded(false)
                .withPathParameters(Map.of("GameServerGroupName", INVALID_GROUP)).build();
    }

    /**
     * Never throws: a snapshot without priming is slower to warm, not broken. The DynamoDB read is
     * made only by a function whose role may make it (an AccessDenied would warm the same code, but
     * leave a denied call in CloudTrail at every snapshot).
     */
    static void prime(ApiHandler handler) {
        try {
            handler.handleRequest(request(), null);
            if (FunctionAccess.of(handler.operation().functionName()).allows(Tables.GAME_SERVER_GROUPS, FunctionAccess.GET)) {
                handler.services.groups().describe(NO_SUCH_GROUP);
            }
        } catch (RuntimeException expected) {
            // NotFound, or no network while priming: either way the code paths are loaded
        }
    }
}
