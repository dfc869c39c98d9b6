package io.gamefleet.local.edge;

import java.nio.ByteBuffer;
import java.util.Map;
import org.eclipse.jetty.http.HttpException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * What Jetty refuses itself (a request that is not HTTP/1.1, a head too large, a deadline
 * passed) gets the JSON error body every other refusal of the edge has, as API Gateway's:
 * {@code {"__type": ..., "Message": ...}}, whatever the method.
 */
final class JsonErrorHandler extends ErrorHandler {
    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus();
        String message = (String) request.getAttribute(ERROR_MESSAGE);
        Throwable cause = (Throwable) request.getAttribute(ERROR_EXCEPTION);
        if (cause instanceof HttpException http) {
            status = http.getCode();
            if (message == null) {
                message = http.getReason();
            }
        }
        Throwable detail = cause == null ? null : cause.getCause();
        if (detail instanceof NumberFormatException // Jetty's URI parser, on a '%' not followed by two hex digits
                || detail != null && String.valueOf(detail.getMessage()).contains("% encoding")) {
            message = "malformed percent-encoding in the request target: " + detail.getMessage();
        } else if (detail != null && detail.getMessage() != null) {
            message = message + ": " + detail.getMessage();
        }
        if (status == HttpStatus.UPGRADE_REQUIRED_426 || status == HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505) {
            status = HttpStatus.BAD_REQUEST_400; // Jetty's answers to HTTP/2's preface and to HTTP/0.9
            message = "HTTP/1.1 is spoken here (" + message + ")";
        }
        if (message == null || message.isBlank()) {
            message = cause != null && cause.getMessage() != null ? cause.getMessage() : HttpStatus.getMessage(status);
        }
        refuse(response, callback, status, type(status), status >= 500
                ? "the local edge server failed: " + message + "; it is safe to retry" : message);
        return true;
    }

    /** The error type API Gateway and the AWS JSON protocols give a status. */
    static String type(int status) {
        return switch (status) {
            case 403 -> "UnauthorizedException";
            case 404 -> "NotFoundException";
            case 429 -> "ThrottlingException";
            default -> status >= 500 ? "InternalServiceException" : "InvalidRequestException";
        };
    }

    /** Answers with the JSON error body and closes the connection: what came on it may not be HTTP any more. */
    static void refuse(Response response, Callback callback, int status, String type, String message) {
        byte[] body = body(type, message);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        response.getHeaders().put(HttpHeader.CONNECTION, "close");
        response.write(true, ByteBuffer.wrap(body), callback);
    }

    /** The JSON error body: {@code {"__type": ..., "Message": ...}}. */
    static byte[] body(String type, String message) {
        try {
            return Exchange.JSON.writeValueAsBytes(Map.of("__type", type, "Message", message));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
