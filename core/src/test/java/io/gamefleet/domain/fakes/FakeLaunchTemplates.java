package io.gamefleet.domain.fakes;

import io.gamefleet.domain.GamefleetException;
import io.gamefleet.domain.LaunchTemplate;
import io.gamefleet.domain.LaunchTemplates;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Launch templates by name or id: one in {@link #missing} does not exist; one in {@link #pins}
 * resolves to the pinned template given there, any other to itself; one in {@link #profiles}
 * names that instance profile, any other none.
 */
public final class FakeLaunchTemplates implements LaunchTemplates {
    public final Map<String, String> profiles = new ConcurrentHashMap<>();
    public final Map<String, LaunchTemplate> pins = new ConcurrentHashMap<>();
    public final Set<String> missing = ConcurrentHashMap.newKeySet();

    @Override
    public Resolved resolve(LaunchTemplate template) {
        String key = template.launchTemplateId() != null ? template.launchTemplateId() : template.launchTemplateName();
        if (missing.contains(key)) {
            throw GamefleetException.invalidRequest("LaunchTemplate " + key + " does not exist");
        }
        return new Resolved(pins.getOrDefault(key, template), Optional.ofNullable(profiles.get(key)));
    }
}
