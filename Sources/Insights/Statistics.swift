import Foundation

/// The few statistics insights need, written out so each can be checked
/// against published values (`StatisticsTests`): Student's t
/// distribution through the regularized incomplete beta function, Welch's
/// interval for a difference of two means, the one-sample interval, and the
/// Benjamini–Hochberg step-up procedure.
public enum Statistics {
    /// A sample's size, mean and unbiased variance.
    public struct Summary: Sendable, Equatable {
        public let count: Int
        public let mean: Double
        public let variance: Double

        public init(_ values: [Double]) {
            count = values.count
            let mean = values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
            self.mean = mean
            variance = values.count < 2 ? 0 : values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)
        }
    }

    /// An estimate with its 95 % interval and two-sided p-value.
    public struct Estimate: Sendable, Equatable {
        public let value: Double
        public let lower: Double
        public let upper: Double
        public let pValue: Double

        /// Whether the interval leaves zero out.
        public var excludesZero: Bool { lower > 0 || upper < 0 }
    }

    /// Welch's interval for `a.mean − b.mean` (unequal variances, Welch–Satterthwaite degrees of freedom).
    public static func welch(_ a: Summary, _ b: Summary, confidence: Double = 0.95) -> Estimate? {
        guard a.count >= 2, b.count >= 2 else { return nil }
        let va = a.variance / Double(a.count), vb = b.variance / Double(b.count)
        let se = (va + vb).squareRoot()
        let difference = a.mean - b.mean
        guard se > 0, se.isFinite else { return nil }
        let df = (va + vb) * (va + vb) / (va * va / Double(a.count - 1) + vb * vb / Double(b.count - 1))
        return estimate(difference, standardError: se, degreesOfFreedom: df, confidence: confidence)
    }

    /// The one-sample interval for a mean (is it away from zero?).
    public static func oneSample(_ a: Summary, confidence: Double = 0.95) -> Estimate? {
        guard a.count >= 2 else { return nil }
        let se = (a.variance / Double(a.count)).squareRoot()
        guard se > 0, se.isFinite else { return nil }
        return estimate(a.mean, standardError: se, degreesOfFreedom: Double(a.count - 1), confidence: confidence)
    }

    static func estimate(_ value: Double, standardError se: Double, degreesOfFreedom df: Double, confidence: Double) -> Estimate {
        let t = studentTQuantile(0.5 + confidence / 2, degreesOfFreedom: df)
        let p = 2 * (1 - studentTCDF(abs(value) / se, degreesOfFreedom: df))
        return Estimate(value: value, lower: value - t * se, upper: value + t * se, pValue: min(max(p, 0), 1))
    }

    /// P(T ≤ t) for Student's t with `df` degrees of freedom.
    public static func studentTCDF(_ t: Double, degreesOfFreedom df: Double) -> Double {
        guard t.isFinite else { return t > 0 ? 1 : 0 }
        let x = df / (df + t * t)
        let tail = 0.5 * regularizedIncompleteBeta(x, a: df / 2, b: 0.5)
        return t >= 0 ? 1 - tail : tail
    }

    /// The t with P(T ≤ t) = `probability`, by bisection on the CDF (to 1e-10).
    public static func studentTQuantile(_ probability: Double, degreesOfFreedom df: Double) -> Double {
        var low = -1e3, high = 1e3
        for _ in 0..<200 {
            let middle = (low + high) / 2
            if studentTCDF(middle, degreesOfFreedom: df) < probability { low = middle } else { high = middle }
            if high - low < 1e-10 { break }
        }
        return (low + high) / 2
    }

    /// I_x(a, b), by the continued fraction of Numerical Recipes §6.4 (modified Lentz).
    public static func regularizedIncompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
        guard x > 0 else { return 0 }
        guard x < 1 else { return 1 }
        let logGammas: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
        let logPowers: Double = a * log(x) + b * log(1 - x)
        let front = exp(logGammas + logPowers)
        // The fraction converges fast for x below (a + 1) / (a + b + 2); use the symmetry otherwise.
        if x > (a + 1) / (a + b + 2) { return 1 - regularizedIncompleteBeta(1 - x, a: b, b: a) }
        let tiny = 1e-300
        var c = 1.0, d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var fraction = d
        for m in 1...300 {
            let m = Double(m)
            let even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m))
            d = 1 + even * d; if abs(d) < tiny { d = tiny }
            c = 1 + even / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            fraction *= d * c
            let odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))
            d = 1 + odd * d; if abs(d) < tiny { d = tiny }
            c = 1 + odd / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            fraction *= step
            if abs(step - 1) < 1e-14 { break }
        }
        return front * fraction / a
    }

    /// Which of `pValues` the Benjamini–Hochberg step-up procedure rejects at
    /// false discovery rate `q`: the k smallest, for the largest k with p₍ₖ₎ ≤ k·q/m.
    public static func benjaminiHochberg(_ pValues: [Double], q: Double) -> [Bool] {
        let m = pValues.count
        guard m > 0 else { return [] }
        let order = pValues.indices.sorted { pValues[$0] < pValues[$1] }
        var cutoff = -1
        for (rank, index) in order.enumerated() where pValues[index] <= Double(rank + 1) * q / Double(m) { cutoff = rank }
        var rejected = [Bool](repeating: false, count: m)
        if cutoff >= 0 { for index in order[0...cutoff] { rejected[index] = true } }
        return rejected
    }
}
