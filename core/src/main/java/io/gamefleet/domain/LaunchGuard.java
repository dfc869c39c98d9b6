package io.gamefleet.domain;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a game server group may launch its instances with: only the instance profiles the deployer
 * allowed (the stack's GameServer profile and those of its context), so that an administrator of
 * Gamefleet cannot hand an instance, and whoever reads its metadata, a more powerful role. A
 * template without an instance profile gives its instances no credentials, and is allowed.
 */
public final class LaunchGuard {
    private final LaunchTemplates templates;
    private final Set<String> allowedProfileNames;

    /** {@code allowedProfileArns}: ARNs of instance profiles ({@code arn:aws:iam::<account>:instance-profile/<path><name>}). */
    public LaunchGuard(LaunchTemplates templates, Set<String> allowedProfileArns) {
        this.templates = templates;
        Set<String> names = new TreeSet<>();
        allowedProfileArns.forEach(arn -> names.add(profileName(arn)));
        this.allowedProfileNames = Set.copyOf(names);
    }

    /** The template pinned to the version checked; InvalidRequestException naming the profile otherwise. */
    public LaunchTemplate pin(LaunchTemplate template) {
        LaunchTemplates.Resolved resolved = templates.resolve(template);
        Optional<String> profile = resolved.instanceProfile();
        if (profile.isPresent() && !allowedProfileNames.contains(profileName(profile.get()))) {
            throw GamefleetException.invalidRequest("LaunchTemplate " + describe(resolved.pinned())
                    + " runs instances with instance profile " + profile.get()
                    + ", which this deployment does not allow; allowed: "
                    + (allowedProfileNames.isEmpty() ? "none" : List.copyOf(allowedProfileNames))
                    + " (the deployer lists them in context key instanceProfileArns)");
        }
        return resolved.pinned();
    }

    /** An instance profile's name is unique in its account: the part of its ARN after the last '/'. */
    static String profileName(String arnOrName) {
        return arnOrName.substring(arnOrName.lastIndexOf('/') + 1);
    }

    private static String describe(LaunchTemplate t) {
        return (t.launchTemplateId() != null ? t.launchTemplateId() : t.launchTemplateName())
                + (t.version() == null ? "" : " version " + t.version());
    }
}
