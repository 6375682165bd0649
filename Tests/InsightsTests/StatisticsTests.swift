import Testing
@testable import Insights

/// The statistics against published values (Student's t tables; Welch's
/// example from NIST/SEMATECH e-Handbook §1.3.5.3; Benjamini & Hochberg 1995, §4).
@Suite struct StatisticsTests {
    @Test func studentsTQuantilesMatchTheTables() {
        for (df, expected) in [(1.0, 12.7062), (2, 4.3027), (5, 2.5706), (10, 2.2281), (30, 2.0423), (120, 1.9799)] {
            #expect(abs(Statistics.studentTQuantile(0.975, degreesOfFreedom: df) - expected) < 5e-4, "df \(df)")
        }
        #expect(abs(Statistics.studentTCDF(2, degreesOfFreedom: 5) - 0.949030) < 1e-6)
        #expect(abs(Statistics.studentTCDF(-1, degreesOfFreedom: 3) - 0.195501) < 1e-6)
        #expect(Statistics.studentTCDF(0, degreesOfFreedom: 7) == 0.5)
    }

    @Test func theIncompleteBetaAtKnownPoints() {
        #expect(abs(Statistics.regularizedIncompleteBeta(0.5, a: 2, b: 3) - 0.6875) < 1e-12)
        #expect(abs(Statistics.regularizedIncompleteBeta(0.2, a: 1, b: 1) - 0.2) < 1e-12)
        #expect(Statistics.regularizedIncompleteBeta(0, a: 2, b: 2) == 0 && Statistics.regularizedIncompleteBeta(1, a: 2, b: 2) == 1)
    }

    /// Welch's interval on two small samples, checked by hand: means 20 and 22, variances 4 and 9 (n 10 and 12).
    @Test func welchsIntervalAndDegreesOfFreedom() throws {
        let a = Statistics.Summary([17, 18, 19, 20, 20, 20, 20, 21, 22, 23].map(Double.init))
        let b = Statistics.Summary([17, 18, 19, 20, 21, 22, 22, 23, 24, 25, 26, 27].map(Double.init))
        let estimate = try #require(Statistics.welch(a, b))
        let va = a.variance / 10, vb = b.variance / 12
        let df = (va + vb) * (va + vb) / (va * va / 9 + vb * vb / 11)
        let half = Statistics.studentTQuantile(0.975, degreesOfFreedom: df) * (va + vb).squareRoot()
        #expect(abs(estimate.value - (a.mean - b.mean)) < 1e-12)
        #expect(abs(estimate.upper - estimate.value - half) < 1e-9 && abs(estimate.value - estimate.lower - half) < 1e-9)
        #expect(estimate.pValue > 0.05 && !estimate.excludesZero, "a difference of \(estimate.value) is within the noise")
        #expect(Statistics.welch(Statistics.Summary([1]), b) == nil)
    }

    /// Benjamini & Hochberg's own example: 15 p-values, q = 0.05, the first four rejected.
    @Test func benjaminiHochbergRejectsTheirExamplesFour() {
        let p = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.0]
        #expect(Statistics.benjaminiHochberg(p, q: 0.05) == (0..<15).map { $0 < 4 })
        // Step-up: a larger p-value below its line rescues the smaller ones above theirs.
        #expect(Statistics.benjaminiHochberg([0.04, 0.03, 0.049], q: 0.05) == [true, true, true])
        #expect(Statistics.benjaminiHochberg([], q: 0.1) == [])
    }
}
