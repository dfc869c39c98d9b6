package io.gamefleet.local.edge;

import java.io.IOException;

/** One emulated AWS service behind the edge server: it says which requests are its own, and serves them. */
interface EdgeService {
    boolean handles(Exchange exchange);

    void serve(Exchange exchange) throws IOException;
}
