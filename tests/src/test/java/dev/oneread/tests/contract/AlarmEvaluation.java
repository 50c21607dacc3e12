package dev.oneread.tests.contract;

import dev.oneread.local.template.SamTemplate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A CloudWatch metric alarm of template.yaml, evaluated as CloudWatch evaluates it (CloudWatch user guide, "Evaluating
 * an alarm"): each period gives one datapoint (the statistic over the period, or the metric-math expression over the
 * metrics' datapoints); at each period the last {@code EvaluationPeriods} datapoints are looked at, and the alarm is in
 * ALARM when at least {@code DatapointsToAlarm} of them breach the threshold. Missing datapoints count as
 * TreatMissingData says (every alarm here: notBreaching, so they count as good).
 *
 * <pre>{@code AlarmEvaluation.of(template, "RunJobErrorsAlarm").alarms(Map.of("m", List.of(1.0)))}</pre>
 *
 * @param returned the datapoint of each period from the metrics' datapoints by id (a single metric's id is "m")
 */
record AlarmEvaluation(
        String name,
        int period,
        int evaluationPeriods,
        int datapointsToAlarm,
        double threshold,
        String comparison,
        String treatMissingData,
        Function<Map<String, Double>, Double> returned) {

    /** The id a single-metric alarm's datapoints go under. */
    static final String METRIC = "m";

    static AlarmEvaluation of(SamTemplate template, String name) {
        Map<String, Object> properties =
                SamTemplate.map(template.resources().get(name).get("Properties"));
        int evaluationPeriods = ((Number) properties.get("EvaluationPeriods")).intValue();
        Object datapoints = properties.get("DatapointsToAlarm");
        Function<Map<String, Double>, Double> returned;
        int period;
        if (properties.containsKey("Metrics")) {
            Map<String, String> expressions = new LinkedHashMap<>();
            String result = null;
            int metricPeriod = 0;
            for (Object entry : SamTemplate.list(properties.get("Metrics"))) {
                Map<String, Object> metric = SamTemplate.map(entry);
                String id = String.valueOf(metric.get("Id"));
                if (metric.containsKey("Expression")) {
                    expressions.put(id, String.valueOf(metric.get("Expression")));
                } else {
                    metricPeriod =
                            ((Number) SamTemplate.map(metric.get("MetricStat")).get("Period")).intValue();
                }
                if (!Boolean.FALSE.equals(metric.get("ReturnData"))) {
                    result = id;
                }
            }
            String answer = result;
            returned = values -> MetricMath.evaluate(answer, expressions, values);
            period = metricPeriod;
        } else {
            returned = values -> values.get(METRIC);
            period = ((Number) properties.get("Period")).intValue();
        }
        return new AlarmEvaluation(
                name,
                period,
                evaluationPeriods,
                datapoints == null ? evaluationPeriods : ((Number) datapoints).intValue(),
                threshold(template, properties.get("Threshold")),
                String.valueOf(properties.get("ComparisonOperator")),
                String.valueOf(properties.getOrDefault("TreatMissingData", "missing")),
                returned);
    }

    /** A literal threshold, or the default of the parameter it references. */
    private static double threshold(SamTemplate template, Object threshold) {
        Object ref = threshold instanceof Map<?, ?> map ? map.get("Ref") : null;
        Object value = ref == null
                ? threshold
                : template.parameters().get(String.valueOf(ref)).get("Default");
        return Double.parseDouble(String.valueOf(value));
    }

    /**
     * Whether the alarm reaches ALARM at any period of {@code series}: each metric id to its datapoints, one per
     * period, null where the metric published nothing.
     */
    boolean alarms(Map<String, List<Double>> series) {
        int periods = series.values().stream().mapToInt(List::size).max().orElse(0);
        List<Boolean> breaching = new ArrayList<>();
        for (int t = 0; t < periods; t++) {
            Map<String, Double> values = new LinkedHashMap<>();
            int at = t;
            series.forEach((id, points) -> values.put(id, at < points.size() ? points.get(at) : null));
            Double datapoint = returned.apply(values);
            breaching.add(datapoint == null ? missingBreaches() : breaches(datapoint));
            int from = Math.max(0, breaching.size() - evaluationPeriods);
            long count = breaching.subList(from, breaching.size()).stream()
                    .filter(b -> b)
                    .count();
            if (count >= datapointsToAlarm) {
                return true;
            }
        }
        return false;
    }

    private boolean missingBreaches() {
        return treatMissingData.equals("breaching");
    }

    private boolean breaches(double value) {
        return switch (comparison) {
            case "GreaterThanThreshold" -> value > threshold;
            case "GreaterThanOrEqualToThreshold" -> value >= threshold;
            case "LessThanThreshold" -> value < threshold;
            case "LessThanOrEqualToThreshold" -> value <= threshold;
            default -> throw new IllegalArgumentException(name + ": no evaluator for " + comparison);
        };
    }

    /** The rule in the table's words: {@code Sum 60 s, 2 of 3, > 0, missing notBreaching}. */
    String rule() {
        return period + " s, " + datapointsToAlarm + " of " + evaluationPeriods + ", " + comparison + " " + threshold
                + ", missing " + treatMissingData;
    }

    /**
     * The metric-math expressions the template's alarms use, evaluated per period: numbers, metric ids, {@code + - *
     * /}, {@code >}, {@code FILL(x, v)} and {@code IF(c, a, b)} (CloudWatch's metric math syntax). A missing
     * datapoint stays missing through arithmetic, as in CloudWatch, unless FILL gives it a value.
     */
    static final class MetricMath {
        private final String text;
        private final Map<String, String> expressions;
        private final Map<String, Double> values;
        private int at;

        private MetricMath(String text, Map<String, String> expressions, Map<String, Double> values) {
            this.text = text;
            this.expressions = expressions;
            this.values = values;
        }

        static Double evaluate(String id, Map<String, String> expressions, Map<String, Double> values) {
            String expression = expressions.get(id);
            if (expression == null) {
                return values.get(id);
            }
            MetricMath parser = new MetricMath(expression, expressions, values);
            Double value = parser.comparison();
            parser.skipSpaces();
            if (parser.at != expression.length()) {
                throw new IllegalArgumentException("cannot read " + expression + " at " + parser.at);
            }
            return value;
        }

        private Double comparison() {
            Double left = sum();
            if (take('>')) {
                Double right = sum();
                return left == null || right == null ? null : (left > right ? 1.0 : 0.0);
            }
            return left;
        }

        private Double sum() {
            Double value = product();
            while (true) {
                if (take('+')) {
                    value = combine(value, product(), Double::sum);
                } else if (take('-')) {
                    value = combine(value, product(), (a, b) -> a - b);
                } else {
                    return value;
                }
            }
        }

        private Double product() {
            Double value = term();
            while (true) {
                if (take('*')) {
                    value = combine(value, term(), (a, b) -> a * b);
                } else if (take('/')) {
                    value = combine(value, term(), (a, b) -> a / b);
                } else {
                    return value;
                }
            }
        }

        private Double term() {
            skipSpaces();
            if (take('(')) {
                Double value = comparison();
                expect(')');
                return value;
            }
            int start = at;
            while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '.')) {
                at++;
            }
            String word = text.substring(start, at);
            if (word.isEmpty()) {
                throw new IllegalArgumentException("cannot read " + text + " at " + at);
            }
            if (Character.isDigit(word.charAt(0))) {
                return Double.parseDouble(word);
            }
            if (take('(')) {
                List<Double> arguments = new ArrayList<>();
                do {
                    arguments.add(comparison());
                } while (take(','));
                expect(')');
                return switch (word) {
                    case "FILL" -> arguments.get(0) == null ? arguments.get(1) : arguments.get(0);
                    case "IF" ->
                        arguments.get(0) == null ? null : (arguments.get(0) != 0 ? arguments.get(1) : arguments.get(2));
                    default -> throw new IllegalArgumentException("no evaluator for " + word);
                };
            }
            return evaluate(word, expressions, values);
        }

        private static Double combine(Double a, Double b, java.util.function.BinaryOperator<Double> op) {
            return a == null || b == null ? null : op.apply(a, b);
        }

        private boolean take(char c) {
            skipSpaces();
            if (at < text.length() && text.charAt(at) == c) {
                at++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (!take(c)) {
                throw new IllegalArgumentException("expected " + c + " in " + text + " at " + at);
            }
        }

        private void skipSpaces() {
            while (at < text.length() && text.charAt(at) == ' ') {
                at++;
            }
        }
    }
}
