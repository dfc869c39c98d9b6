package io.gamefleet.domain;

import java.util.Optional;

/**
 * The launch templates port: what a group's launch template would launch instances with. The AWS
 * adapter asks EC2 (DescribeLaunchTemplateVersions); the local profile's simulated fleet has no
 * templates and answers with the template as given.
 */
@FunctionalInterface
public interface LaunchTemplates {

    /**
     * The template version the group names ({@code $Default} when it names none), pinned to the
     * template's id and the version's number so that a later version, or another template created
     * under the same name, cannot change what its instances run with. Refuses
     * (InvalidRequestException) a template or version that does not exist.
     */
    Resolved resolve(LaunchTemplate template);

    /** {@code instanceProfile}: the ARN or name of the IAM instance profile the version names, if any. */
    record Resolved(LaunchTemplate pinned, Optional<String> instanceProfile) {}
}
