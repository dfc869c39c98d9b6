package io.gamefleet.domain;

public record Tag(String key, String value) {}
