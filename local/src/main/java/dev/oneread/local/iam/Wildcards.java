package dev.oneread.local.iam;

import java.util.Locale;

/**
 * IAM's wildcards: {@code *} for any run of characters (none included), {@code ?} for one. Actions compare without
 * case, resources and condition values (StringLike) with it (IAM JSON policy elements: Action, Resource, Condition
 * operators). Matched by walking both strings, never by a regular expression built from the pattern.
 */
final class Wildcards {
    private Wildcards() {}

    static boolean matches(String pattern, String value, boolean ignoreCase) {
        String p = ignoreCase ? pattern.toLowerCase(Locale.ROOT) : pattern;
        String v = ignoreCase ? value.toLowerCase(Locale.ROOT) : value;
        int pi = 0;
        int vi = 0;
        int star = -1;
        int resume = 0;
        while (vi < v.length()) {
            if (pi < p.length() && (p.charAt(pi) == '?' || p.charAt(pi) == v.charAt(vi))) {
                pi++;
                vi++;
            } else if (pi < p.length() && p.charAt(pi) == '*') {
                star = pi++;
                resume = vi;
            } else if (star >= 0) {
                pi = star + 1;
                vi = ++resume;
            } else {
                return false;
            }
        }
        while (pi < p.length() && p.charAt(pi) == '*') {
            pi++;
        }
        return pi == p.length();
    }
}
