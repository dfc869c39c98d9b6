package io.gamefleet.adapters.dynamodb.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The signer against AWS's published Signature Version 4 examples. */
class SigV4Test {
    private static final String SUITE_SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";

    /** The test suite's get-vanilla: GET / with host and x-amz-date, no body. */
    @Test
    void signsTheTestSuitesGetVanilla() {
        String authorization = new SigV4("us-east-1", "service").authorization("GET", "/", "",
                new TreeMap<>(Map.of("host", "example.amazonaws.com", "x-amz-date", "20150830T123600Z")),
                new byte[0], "20150830T123600Z", "AKIDEXAMPLE", SUITE_SECRET);
        assertThat(authorization).isEqualTo("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request,"
                + " SignedHeaders=host;x-amz-date,"
                + " Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31");
    }

    /** S3's documented GET Object example: a path, a range header and the payload hash header. */
    @Test
    void signsTheS3GetObjectExample() {
        TreeMap<String, String> headers = new TreeMap<>(Map.of("host", "examplebucket.s3.amazonaws.com",
                "range", "bytes=0-9",
                "x-amz-content-sha256", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                "x-amz-date", "20130524T000000Z"));
        String authorization = new SigV4("us-east-1", "s3").authorization("GET", "/test.txt", "", headers, new byte[0],
                "20130524T000000Z", "AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY");
        assertThat(authorization).isEqualTo("AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
                + " SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
                + " Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
    }

    /** The kept signing key is derived again when the date or the secret changes. */
    @Test
    void aNewDayOrSecretDerivesANewKey() {
        SigV4 signer = new SigV4("us-east-1", "service");
        String vanilla = "Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31";
        assertThat(sign(signer, "20150830T123600Z", SUITE_SECRET)).endsWith(vanilla);
        String nextDay = sign(signer, "20150831T123600Z", SUITE_SECRET);
        assertThat(nextDay).contains("/20150831/").doesNotEndWith(vanilla);
        assertThat(sign(signer, "20150830T123600Z", "another")).doesNotEndWith(vanilla);
        assertThat(sign(signer, "20150830T123600Z", SUITE_SECRET)).endsWith(vanilla);
        assertThat(sign(new SigV4("us-east-1", "service"), "20150831T123600Z", SUITE_SECRET)).isEqualTo(nextDay);
    }

    @Test
    void formatsTheAmzDateInUtc() {
        assertThat(DynamoDbHttpClient.amzDate(1440938160000L)).isEqualTo("20150830T123600Z");
        assertThat(DynamoDbHttpClient.amzDate(0)).isEqualTo("19700101T000000Z");
        assertThat(SigV4.hex(SigV4.sha256("".getBytes(StandardCharsets.UTF_8))))
                .isEqualTo("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    }

    private static String sign(SigV4 signer, String amzDate, String secret) {
        return signer.authorization("GET", "/", "", new TreeMap<>(Map.of("host", "example.amazonaws.com",
                "x-amz-date", amzDate)), new byte[0], amzDate, "AKIDEXAMPLE", secret);
    }
}
