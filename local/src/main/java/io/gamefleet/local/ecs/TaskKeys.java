package io.gamefleet.local.ecs;

/**
 * The keys every container of a task may sign with (its agent sidecar does), as a task role's
 * credentials in AWS: issued at the task's launch for its FleetIQ instance id (the edge admits them as a GAME_SERVER bound to it),
 * and taken back when the task is killed.
 */
public interface TaskKeys {

    record Keys(String accessKeyId, String secretAccessKey) {}

    Keys issue(String instanceId);

    void revoke(Keys keys);
}
