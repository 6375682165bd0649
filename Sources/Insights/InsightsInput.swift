/// What insights are computed from, as plain values: AppCore reads them from
/// the weight log and the habits, so this target names neither.
public struct InsightsInput: Sendable, Equatable {
    /// One weigh-in: its local day, the minute of that day, and the weight.
    public struct WeighIn: Sendable, Equatable {
        public let day: Int
        public let minute: Int
        public let kilograms: Double

        public init(day: Int, minute: Int, kilograms: Double) {
            self.day = day
            self.minute = minute
            self.kilograms = kilograms
        }
    }

    /// One habit as insights see it: the days it was done, the days that do
    /// not count (skipped, or before it existed), and how many done days make
    /// a week "met" (3 for 3 times a week; 5 of 7 for every day).
    public struct Habit: Sendable, Equatable {
        public let name: String
        /// The first day it could have been done.
        public let firstDay: Int
        /// Done days: a yes, or a numeric day with an amount above zero.
        public let doneDays: Set<Int>
        /// Skipped days: neither done nor not done.
        public let skippedDays: Set<Int>
        /// Done days in a Monday-to-Sunday week that make it a met week.
        public let weeklyQuota: Int

        public init(name: String, firstDay: Int, doneDays: Set<Int>, skippedDays: Set<Int> = [], weeklyQuota: Int) {
            self.name = name
            self.firstDay = firstDay
            self.doneDays = doneDays
            self.skippedDays = skippedDays
            self.weeklyQuota = max(1, min(7, weeklyQuota))
        }
    }

    /// Every weigh-in, in any order.
    public var weighIns: [WeighIn]
    public var habits: [Habit]
    /// Today's local day: nothing after it counts.
    public var today: Int

    public init(weighIns: [WeighIn], habits: [Habit], today: Int) {
        self.weighIns = weighIns
        self.habits = habits
        self.today = today
    }
}
