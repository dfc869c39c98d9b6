package io.gamefleet.catalog;

import io.gamefleet.catalog.Settings.Setting;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.function.Function;

/**
 * The stage's instance lifetime, PlayFab's model: an instance ends at its launch time plus
 * {@code maxInstance} ({@link Settings#MAX_INSTANCE_LIFETIME_HOURS}), and from {@code guaranteedServer}
 * ({@link Settings#GUARANTEED_SERVER_LIFETIME_HOURS}) before that it is retiring and takes no claim, so
 * that every claimed game server has at least that long. A zero maximum turns it off. The settings
 * are hours, a fraction allowed (the local profile's minutes); the functions, the CDK app and the
 * local profile read them here, so each refuses the same values, naming what it was given.
 */
public record Lifetimes(Duration maxInstance, Duration guaranteedServer) {
    private static final BigDecimal MILLIS_PER_HOUR = BigDecimal.valueOf(3_600_000);

    public Lifetimes {
        check(maxInstance, guaranteedServer, Settings.MAX_INSTANCE_LIFETIME_HOURS.environmentVariable(),
                Settings.GUARANTEED_SERVER_LIFETIME_HOURS.environmentVariable());
    }

    /** The settings' values (their defaults where absent or blank); {@code names} says what each was given as. */
    public static Lifetimes of(Function<Setting, String> settings, Function<Setting, String> names) {
        Duration max = hours(settings, names, Settings.MAX_INSTANCE_LIFETIME_HOURS);
        Duration guaranteed = hours(settings, names, Settings.GUARANTEED_SERVER_LIFETIME_HOURS);
        check(max, guaranteed, names.apply(Settings.MAX_INSTANCE_LIFETIME_HOURS),
                names.apply(Settings.GUARANTEED_SERVER_LIFETIME_HOURS));
        return new Lifetimes(max, guaranteed);
    }

    /** The catalog's defaults: 240 and 23 hours. */
    public static Lifetimes defaults() {
        return of(Setting::defaultValue, Setting::environmentVariable);
    }

    /** Whether instances have a maximum lifetime at all. */
    public boolean limited() {
        return !maxInstance.isZero();
    }

    /** A duration as the settings take it: hours, to nine decimals (whole milliseconds come back exact). */
    public static String hours(Duration duration) {
        return BigDecimal.valueOf(duration.toMillis()).divide(MILLIS_PER_HOUR, 9, RoundingMode.HALF_UP)
                .stripTrailingZeros().toPlainString();
    }

    /**
     * A guaranteed lifetime must be shorter than the maximum: at or past it, an instance would be
     * retiring from its launch and never take a claim. Without a maximum, nothing is guaranteed.
     */
    private static void check(Duration max, Duration guaranteed, String maxName, String guaranteedName) {
        if (max.isNegative() || guaranteed.isNegative()) {
            throw new IllegalArgumentException(maxName + " and " + guaranteedName + " must not be negative");
        }
        if (!max.isZero() && guaranteed.compareTo(max) >= 0) {
            throw new IllegalArgumentException(guaranteedName + " (" + readable(guaranteed) + ") must be below "
                    + maxName + " (" + readable(max) + "): an instance would be retiring, and take no claim, from its launch");
        }
    }

    /** In the largest unit that says it whole: {@code 23 h}, {@code 4 min}, {@code 90 s}. */
    private static String readable(Duration d) {
        if (d.toMillis() % 3_600_000 == 0) {
            return d.toHours() + " h";
        }
        return d.toMillis() % 60_000 == 0 ? d.toMinutes() + " min" : BigDecimal.valueOf(d.toMillis(), 3)
                .stripTrailingZeros().toPlainString() + " s";
    }

    private static Duration hours(Function<Setting, String> settings, Function<Setting, String> names, Setting setting) {
        String given = settings.apply(setting);
        String value = given == null || given.isBlank() ? setting.defaultValue() : given.trim();
        try {
            BigDecimal hours = new BigDecimal(value);
            if (hours.signum() < 0) {
                throw new NumberFormatException();
            }
            return Duration.ofMillis(hours.multiply(MILLIS_PER_HOUR).setScale(0, RoundingMode.HALF_UP).longValueExact());
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(names.apply(setting) + " must be a non-negative number of hours, not "
                    + value, e);
        }
    }
}
