package io.gamefleet.agent;

/**
 * Where an ended process's log folder goes, with {@code agent-report.json} (how it ended), under
 * {@code <group>/<instance>/<game server id>/}: a folder ({@link FolderLogArchive}, config
 * {@code archiveDirectory}) or S3, one zip per game server ({@link S3LogArchive}, config
 * {@code archiveBucket}). Called under
 * the supervisor's lock: it must not wait on the network.
 */
interface LogArchive extends AutoCloseable {
    String REPORT = "agent-report.json";

    void archive(ServerRecord s);

    /** The instance ends at {@code end}: what still goes elsewhere (S3) must be done by then, or given up. */
    default void endBy(java.time.Instant end) {}

    /** Nothing waits to go elsewhere, or all that waits has been given up on (always, for a folder). */
    default boolean idle() {
        return true;
    }

    /** Lets go of what it runs in the background (nothing, for a folder). */
    @Override
    default void close() {}
}
