package io.gamefleet.domain;

import java.util.List;
import java.util.Optional;

/** One page of a listing and, when there is more, the position to continue from. */
public record Page<T>(List<T> items, Optional<String> cursor) {}
