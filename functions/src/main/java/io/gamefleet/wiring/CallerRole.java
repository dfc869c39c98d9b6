package io.gamefleet.wiring;

/** A caller role of the deployment: its ARN and unique id (IAM's RoleId), as its sessions are told apart. */
public record CallerRole(String arn, String uniqueId) {}
