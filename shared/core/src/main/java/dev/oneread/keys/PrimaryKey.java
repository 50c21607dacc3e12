package dev.oneread.keys;

/** The two key attribute values of one item: partition ({@code EntityRef}) and sort ({@code Detail}). */
public record PrimaryKey(String partition, String sort) {}
