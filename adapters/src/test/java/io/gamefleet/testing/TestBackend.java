package io.gamefleet.testing;

import java.net.URI;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import java.util.Locale;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProviderChain;
import software.amazon.awssdk.auth.credentials.EnvironmentVariableCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.auth.credentials.SystemPropertyCredentialsProvider;
import software.amazon.awssdk.regions.Region;

/**
 * The backend of the test classes that need DynamoDB (the store tests, the local API tests),
 * chosen by system properties; Maven passes {@code -D} properties to the test JVM, and
 * {@code -Plocalstack} sets the first one:
 * <ul>
 * <li>{@code gamefleet.backend}: {@code embedded} (the default: dynoxide and the Step Functions
 * sidecar), {@code localstack} (LocalStack's DynamoDB, started once per test JVM by
 * Testcontainers; needs Docker, and without it those classes are skipped with the reason) or
 * {@code endpoints} (the endpoints below);
 * <li>{@code gamefleet.dynamodb.endpoint} (required) and {@code gamefleet.stepfunctions.endpoint}
 * (optional; the local API tests only): read with {@code endpoints} only;
 * <li>{@code gamefleet.localstack.image}: the LocalStack image, {@code localstack/localstack:4}
 * unless given; {@code LOCALSTACK_AUTH_TOKEN} from the environment is passed into it when set.
 * </ul>
 * Nothing picks LocalStack by itself when Docker is there: the default stays embedded so a run
 * does not depend on what the machine happens to have.
 *
 * <p>The local module's tests use it too, through this module's test-jar.
 */
public record TestBackend(Kind kind, Optional<URI> dynamoDbEndpoint, Optional<URI> stepFunctionsEndpoint,
        String localStackImage) {
    private static final java.util.concurrent.atomic.AtomicBoolean SKIP_PRINTED =
            new java.util.concurrent.atomic.AtomicBoolean();

    public static final String BACKEND = "gamefleet.backend";
    public static final String DYNAMODB_ENDPOINT = "gamefleet.dynamodb.endpoint";
    public static final String STEPFUNCTIONS_ENDPOINT = "gamefleet.stepfunctions.endpoint";
    public static final String LOCALSTACK_IMAGE = "gamefleet.localstack.image";
    public static final String DEFAULT_LOCALSTACK_IMAGE = "localstack/localstack:4";

    public enum Kind { EMBEDDED, LOCALSTACK, ENDPOINTS }

    /** The backend the system properties of this JVM select. */
    public static TestBackend selected() {
        return parse(System::getProperty);
    }

    /** {@code properties} maps a property name to its value or null. */
    public static TestBackend parse(UnaryOperator<String> properties) {
        String name = value(properties, BACKEND).orElse("embedded");
        Kind kind = switch (name.toLowerCase(Locale.ROOT)) {
            case "embedded" -> Kind.EMBEDDED;
            case "localstack" -> Kind.LOCALSTACK;
            case "endpoints" -> Kind.ENDPOINTS;
            default -> throw new IllegalArgumentException(BACKEND + " must be embedded, localstack or endpoints, not "
                    + name);
        };
        Optional<URI> dynamoDb = value(properties, DYNAMODB_ENDPOINT).map(v -> url(DYNAMODB_ENDPOINT, v));
        Optional<URI> stepFunctions = value(properties, STEPFUNCTIONS_ENDPOINT).map(v -> url(STEPFUNCTIONS_ENDPOINT, v));
        if (kind == Kind.ENDPOINTS && dynamoDb.isEmpty()) {
            throw new IllegalArgumentException(BACKEND + "=endpoints needs -D" + DYNAMODB_ENDPOINT
                    + "=URL (and optionally -D" + STEPFUNCTIONS_ENDPOINT + "=URL)");
        }
        if (kind != Kind.ENDPOINTS && (dynamoDb.isPresent() || stepFunctions.isPresent())) {
            throw new IllegalArgumentException(DYNAMODB_ENDPOINT + " and " + STEPFUNCTIONS_ENDPOINT
                    + " are read only with -D" + BACKEND + "=endpoints, and " + BACKEND + " is " + name);
        }
        String image = value(properties, LOCALSTACK_IMAGE).orElse(DEFAULT_LOCALSTACK_IMAGE);
        return new TestBackend(kind, dynamoDb, stepFunctions, image);
    }

    /**
     * Why the classes on this backend must be skipped, or empty to run them: only LocalStack
     * without Docker is skipped. {@code dockerAvailable} is asked only for LocalStack.
     */
    public Optional<String> skipReason(BooleanSupplier dockerAvailable) {
        if (kind != Kind.LOCALSTACK || dockerAvailable.getAsBoolean()) {
            return Optional.empty();
        }
        return Optional.of(BACKEND + "=localstack, but Testcontainers found no Docker engine"
                + " (DockerClientFactory.isDockerAvailable() is false), so the tests on LocalStack are skipped;"
                + " start Docker to run them, or leave out -Plocalstack to run them on the embedded backend");
    }

    /** {@link #skipReason(BooleanSupplier)} with Testcontainers' own Docker check (made once per JVM). */
    public Optional<String> skipReason() {
        return skipReason(() -> LocalStack.dockerAvailable());
    }

    /** JUnit's verdict for a class on this backend: skipped with the reason (printed once per JVM). */
    public ConditionEvaluationResult condition() {
        return skipReason().map(reason -> {
            if (SKIP_PRINTED.compareAndSet(false, true)) {
                System.out.println("[gamefleet] " + reason);
            }
            return ConditionEvaluationResult.disabled(reason);
        }).orElseGet(() -> ConditionEvaluationResult.enabled("backend " + this));
    }

    /** The DynamoDB endpoint to use, or empty for the embedded emulator; starts LocalStack once per JVM. */
    public Optional<URI> dynamoDb() {
        return switch (kind) {
            case EMBEDDED -> Optional.empty();
            case LOCALSTACK -> Optional.of(LocalStack.dynamoDbEndpoint(localStackImage));
            case ENDPOINTS -> dynamoDbEndpoint;
        };
    }

    /** The Step Functions endpoint to use, or empty for the embedded sidecar (always, except with endpoints). */
    public Optional<URI> stepFunctions() {
        return stepFunctionsEndpoint;
    }

    /**
     * Credentials for a client of {@link #dynamoDb()}. Emulators take any; with endpoints (perhaps
     * AWS) the {@code aws.accessKeyId}/{@code aws.secretAccessKey}/{@code aws.sessionToken} system
     * properties, else the environment's. Never the instance metadata service.
     */
    public AwsCredentialsProvider credentials() {
        if (kind != Kind.ENDPOINTS) {
            return StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test"));
        }
        return AwsCredentialsProviderChain.of(SystemPropertyCredentialsProvider.create(),
                EnvironmentVariableCredentialsProvider.create());
    }

    /** {@code aws.region} when given (it must match an AWS endpoint), else us-east-1. */
    public Region region() {
        return Region.of(value(System::getProperty, "aws.region").orElse("us-east-1"));
    }

    public boolean embedded() {
        return kind == Kind.EMBEDDED;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case EMBEDDED -> "embedded (dynoxide, Step Functions sidecar)";
            case LOCALSTACK -> "localstack (DynamoDB of " + localStackImage + ", embedded Step Functions sidecar)";
            case ENDPOINTS -> "endpoints (DynamoDB " + dynamoDbEndpoint.orElseThrow() + ", Step Functions "
                    + stepFunctionsEndpoint.map(URI::toString).orElse("sidecar") + ")";
        };
    }

    private static Optional<String> value(UnaryOperator<String> properties, String name) {
        return Optional.ofNullable(properties.apply(name)).map(String::strip).filter(v -> !v.isEmpty());
    }

    private static URI url(String property, String value) {
        try {
            URI uri = URI.create(value);
            if (uri.getScheme() != null && uri.getHost() != null) {
                return uri;
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new IllegalArgumentException(property + " must be a URL such as http://127.0.0.1:4566, not " + value);
    }

    /**
     * Testcontainers, in a class of its own so that the embedded backend never loads it. One
     * container per test JVM, stopped when the JVM ends (by Testcontainers' Ryuk container, and by
     * a shutdown hook where Ryuk is disabled).
     */
    private static final class LocalStack {
        private static Boolean dockerAvailable;
        private static org.testcontainers.containers.localstack.LocalStackContainer container;

        static synchronized boolean dockerAvailable() {
            if (dockerAvailable == null) {
                dockerAvailable = org.testcontainers.DockerClientFactory.instance().isDockerAvailable();
            }
            return dockerAvailable;
        }

        static synchronized URI dynamoDbEndpoint(String image) {
            if (container == null) {
                var localStack = new org.testcontainers.containers.localstack.LocalStackContainer(
                        org.testcontainers.utility.DockerImageName.parse(image)
                                .asCompatibleSubstituteFor("localstack/localstack"))
                        .withServices(org.testcontainers.containers.localstack.LocalStackContainer.Service.DYNAMODB);
                String token = System.getenv("LOCALSTACK_AUTH_TOKEN");
                if (token != null && !token.isBlank()) {
                    localStack.withEnv("LOCALSTACK_AUTH_TOKEN", token);
                }
                localStack.start();
                Runtime.getRuntime().addShutdownHook(new Thread(localStack::stop, "stop-localstack"));
                container = localStack;
            }
            return container.getEndpoint();
        }
    }
}
