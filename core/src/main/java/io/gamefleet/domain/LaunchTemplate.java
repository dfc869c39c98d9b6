package io.gamefleet.domain;

/** FleetIQ's LaunchTemplateSpecification: an id or a name, and an optional version. */
public record LaunchTemplate(String launchTemplateId, String launchTemplateName, String version) {}
