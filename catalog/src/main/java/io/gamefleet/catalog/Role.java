package io.gamefleet.catalog;

/** Caller roles (docs/api.md): each maps to an IAM policy in AWS and to a principal kind locally. */
public enum Role {
    ADMIN,
    MATCHMAKER,
    GAME_SERVER
}
