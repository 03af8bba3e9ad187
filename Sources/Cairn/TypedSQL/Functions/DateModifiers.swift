import Foundation

// SQLite's date modifiers on date expressions, spelled as StructuredQueries spells them: a date
// expression called with a `DateTimeModifier` (`$0.dueDate(.days(-7))`,
// `$0.dueDate(.startOfMonth.months(1))`), and `.now` for the current date.
//
// A modified date is stored the way its column stores dates, so it compares with the column,
// orders with it and reads back as a `Date`. Two routes lead there:
//
// - pure offsets (`days`, `hours`, `minutes`, `seconds`, `milliseconds`) on a storage of REAL
//   seconds (`Date.TimeIntervalSinceReferenceDateRepresentation`, `Date.UnixTimeRepresentation`)
//   are arithmetic on the stored seconds, one addition per modifier, each the same IEEE
//   operation as `Date.addingTimeInterval`: exact;
// - everything else goes through SQLite's date functions, which count in whole milliseconds:
//   `julianday(time value, modifiers…)` turned back into seconds through the Julian day in
//   milliseconds (`round(… * 86400000.0)`), so the result is the exact millisecond SQLite
//   computed, or `strftime('%Y-%m-%d %H:%M:%f', …)` for a date stored as text (StructuredQueries
//   writes `datetime(…, 'subsec')`, the same text, which SQLite before 3.42 answers NULL).
//
// The modifier texts (`'-7 days'`) are bound. Every computation is in UTC, as SQLite's is.

/// A chain of SQLite date modifiers, applied in order by calling a date expression with it.
///
/// ```swift
/// Reminder.select { $0.dueDate(.startOfDay.days(-7)) }
/// // SELECT strftime('%Y-%m-%d %H:%M:%f', "reminders"."dueDate", ?, ?) FROM "reminders"
/// //                                                          ('start of day', '-7 days')
/// ```
///
/// Chain with dot syntax; a chain of your own reads as a member too:
///
/// ```swift
/// extension DateTimeModifier { static let endOfMonth = Self.startOfMonth.months(1).days(-1) }
/// Reminder.where { $0.dueDate.lt(.now(.months(1).endOfMonth)) }
/// ```
///
/// `months` and `years` follow SQLite: the month moves and an overflowing day rolls into the
/// next month (January 31 plus one month is March 3, or March 2 in a leap year), where
/// Foundation's `Calendar` stops at the month's last day. SQLite's `floor` and `ceiling`
/// overflow rules (StructuredQueries' `months(_:_:)`, SQLite 3.46) are not offered: the SQLite
/// Cairn links may be older, and would answer NULL. See <https://sqlite.org/lang_datefunc.html>.
@dynamicMemberLookup
public struct DateTimeModifier: Sendable, Hashable {
    enum Step: Sendable, Hashable {
        /// A fixed number of seconds (`days`, `hours`, `minutes`, `seconds`, `milliseconds`).
        case offset(seconds: Double, modifier: String)
        /// A calendar rule only SQLite's date functions apply (`months`, `start of day`…).
        case calendar(String)

        var modifier: String {
            switch self {
            case .offset(_, let modifier), .calendar(let modifier): modifier
            }
        }
    }

    var steps: [Step] = []

    /// Moves the date by a number of years (SQLite's `'N years'`).
    public static func years(_ count: Int) -> Self { Self().years(count) }
    /// Moves the date by a number of months (SQLite's `'N months'`).
    public static func months(_ count: Int) -> Self { Self().months(count) }
    /// Moves the date by a number of days of 86,400 seconds (`'N days'`).
    public static func days(_ count: Int) -> Self { Self().days(count) }
    /// Moves the date by a number of hours (`'N hours'`).
    public static func hours(_ count: Int) -> Self { Self().hours(count) }
    /// Moves the date by a number of minutes (`'N minutes'`).
    public static func minutes(_ count: Int) -> Self { Self().minutes(count) }
    /// Moves the date by a number of seconds (`'N seconds'`).
    public static func seconds(_ count: Double) -> Self { Self().seconds(count) }
    /// Moves the date by a number of milliseconds (`'N.NNN seconds'`).
    public static func milliseconds(_ count: Int) -> Self { Self().milliseconds(count) }
    /// Moves the date back to midnight of its day, in UTC (`'start of day'`).
    public static var startOfDay: Self { Self().startOfDay }
    /// Moves the date back to midnight of the first of its month (`'start of month'`).
    public static var startOfMonth: Self { Self().startOfMonth }
    /// Moves the date back to midnight of January 1 of its year (`'start of year'`).
    public static var startOfYear: Self { Self().startOfYear }
    /// Moves the date forward to the next day that is the given weekday, 0 for Sunday to 6 for
    /// Saturday, or leaves it on its day if it is one (`'weekday N'`); the time of day stays.
    public static func weekday(_ day: Int) -> Self { Self().weekday(day) }

    /// Also moves the date by a number of years.
    public func years(_ count: Int) -> Self { appending(.calendar("\(count) years")) }
    /// Also moves the date by a number of months.
    public func months(_ count: Int) -> Self { appending(.calendar("\(count) months")) }
    /// Also moves the date by a number of days.
    public func days(_ count: Int) -> Self { offset(count, 86_400, "days") }
    /// Also moves the date by a number of hours.
    public func hours(_ count: Int) -> Self { offset(count, 3_600, "hours") }
    /// Also moves the date by a number of minutes.
    public func minutes(_ count: Int) -> Self { offset(count, 60, "minutes") }

    /// Also moves the date by a number of seconds. A count that is not finite makes the date
    /// NULL (SQLite's answer to a modifier it cannot read): `nil` on an optional date, a
    /// decoding error on a non-optional one.
    public func seconds(_ count: Double) -> Self {
        guard count.isFinite else { return appending(.calendar("\(count) seconds")) }
        // Fixed-point text: SQLite reads no exponent, and keeps milliseconds only.
        return appending(.offset(seconds: count, modifier: String(format: "%.6f seconds", count)))
    }

    /// Also moves the date by a number of milliseconds.
    public func milliseconds(_ count: Int) -> Self {
        let sign = count < 0 ? "-" : ""
        let fraction = String(String(count.magnitude % 1000 + 1000).dropFirst())
        return appending(.offset(
            seconds: Double(count) / 1000, modifier: "\(sign)\(count.magnitude / 1000).\(fraction) seconds"))
    }

    /// Also moves the date back to the start of its day.
    public var startOfDay: Self { appending(.calendar("start of day")) }
    /// Also moves the date back to the start of its month.
    public var startOfMonth: Self { appending(.calendar("start of month")) }
    /// Also moves the date back to the start of its year.
    public var startOfYear: Self { appending(.calendar("start of year")) }
    /// Also moves the date forward to the given weekday (0 Sunday … 6 Saturday); a day outside
    /// 0…6 makes the date NULL, as SQLite answers.
    public func weekday(_ day: Int) -> Self { appending(.calendar("weekday \(day)")) }

    /// Chains a modifier declared as a static member: `.months(1).endOfMonth`.
    public subscript(dynamicMember keyPath: KeyPath<DateTimeModifier.Type, DateTimeModifier>) -> Self {
        Self(steps: steps + DateTimeModifier.self[keyPath: keyPath].steps)
    }

    private func offset(_ count: Int, _ unit: Double, _ name: String) -> Self {
        appending(.offset(seconds: Double(count) * unit, modifier: "\(count) \(name)"))
    }

    private func appending(_ step: Step) -> Self { Self(steps: steps + [step]) }
}

/// A date moved by modifiers, or the current date: what calling a date expression with a
/// ``DateTimeModifier`` and `.now` give. Its value is stored as `QueryValue` stores dates.
public struct _ModifiedDate<QueryValue: _SQLiteDateValue>: QueryExpression, Sendable {
    /// The date modified, or `nil` for SQLite's `'now'`.
    let base: SQLExpression?
    let modifier: DateTimeModifier

    /// The expression as SQL IR.
    public var sqlExpression: SQLExpression {
        var seconds: [Double] = []
        for step in modifier.steps {
            guard case .offset(let offset, _) = step else { break }
            seconds.append(offset)
        }
        if let base, QueryValue._storesSeconds, seconds.count == modifier.steps.count {
            return seconds.reduce(base) { .binary(.add, $0, .value(.real($1))) }
        }
        let time = base.map(QueryValue._timeValue) ?? [.raw(SQLFragment(sql: "'now'"))]
        return QueryValue._dateStorage(time + modifier.steps.map { .value(.text($0.modifier)) })
    }

    /// Applies more modifiers to this date: `.now(.days(-7))`.
    public func callAsFunction(_ modifier: DateTimeModifier) -> _ModifiedDate<QueryValue> {
        _ModifiedDate(base: base, modifier: DateTimeModifier(steps: self.modifier.steps + modifier.steps))
    }
}

extension QueryExpression where QueryValue: _SQLiteDateValue {
    /// This date moved by `modifier`, stored as this date is: StructuredQueries' way of writing
    /// SQLite's date modifiers, by calling the date.
    ///
    /// ```swift
    /// Reminder.where { $0.dueDate.lt(.now(.days(-7))) }
    /// // … WHERE "reminders"."dueDate" < strftime('%Y-%m-%d %H:%M:%f', 'now', ?)   ('-7 days')
    /// Reminder.select { $0.dueDate(.startOfMonth) }
    /// // SELECT strftime('%Y-%m-%d %H:%M:%f', "reminders"."dueDate", ?) FROM "reminders"
    /// //                                                                ('start of month')
    /// @Column(as: Date.UnixTimeRepresentation.self) var startsAt: Date
    /// Event.select { $0.startsAt(.hours(2)) }
    /// // SELECT "events"."startsAt" + ? FROM "events"                       (7200.0)
    /// ```
    ///
    /// Offsets of days, hours, minutes, seconds and milliseconds on a date stored as REAL
    /// seconds (`Date.TimeIntervalSinceReferenceDateRepresentation`, which `@Model` columns use,
    /// and `Date.UnixTimeRepresentation`) are exact additions of seconds. Any other modifier
    /// goes through SQLite's date functions and keeps milliseconds: the date is rounded to the
    /// nearest millisecond first. A NULL date stays NULL.
    public func callAsFunction(_ modifier: DateTimeModifier) -> _ModifiedDate<QueryValue> {
        _ModifiedDate(base: sqlExpression, modifier: modifier)
    }
}

extension QueryExpression where Self == _ModifiedDate<Date> {
    /// The current date as SQLite's clock gives it, in whole milliseconds, the same throughout
    /// one statement, as date text: `.now(.days(-7))`.
    public static var now: Self { _ModifiedDate(base: nil, modifier: DateTimeModifier()) }
}

extension QueryExpression where Self == _ModifiedDate<Date.TimeIntervalSinceReferenceDateRepresentation> {
    /// The current date, stored as REAL seconds since 2001.
    public static var now: Self { _ModifiedDate(base: nil, modifier: DateTimeModifier()) }
}

extension QueryExpression where Self == _ModifiedDate<Date.UnixTimeRepresentation> {
    /// The current date, stored as seconds since 1970.
    public static var now: Self { _ModifiedDate(base: nil, modifier: DateTimeModifier()) }
}

extension QueryExpression where Self == _ModifiedDate<Date.JulianDayRepresentation> {
    /// The current date, stored as a Julian day: `julianday('now', …)`.
    public static var now: Self { _ModifiedDate(base: nil, modifier: DateTimeModifier()) }
}

extension QueryExpression where Self == _ModifiedDate<Date.ISO8601Representation> {
    /// The current date, stored as date text.
    public static var now: Self { _ModifiedDate(base: nil, modifier: DateTimeModifier()) }
}

// Swift's ordering operators with a modified date on the right, as StructuredQueries code
// writes them: `$0.dueDate < .now(.days(-7))`. Members of the two concrete expression types
// only, with a concrete right-hand type, for the type-checking reasons ComparisonOperators.swift
// gives. Disfavored, so that `$0.dueDate < .now` keeps meaning Foundation's `Date.now`, bound.
extension TableColumn where Value: _SQLiteDateValue {
    /// `column < modified date`
    ///
    /// ```swift
    /// Reminder.where { $0.dueDate < .now(.days(-7)) }
    /// // … WHERE "reminders"."dueDate" < strftime('%Y-%m-%d %H:%M:%f', 'now', ?)   ('-7 days')
    /// ```
    @_disfavoredOverload
    public static func < <D>(lhs: Self, rhs: _ModifiedDate<D>) -> SQLQueryExpression<Bool>
    where D._Optionalized == Value._Optionalized { lhs.lt(rhs) }

    /// `column > modified date`
    @_disfavoredOverload
    public static func > <D>(lhs: Self, rhs: _ModifiedDate<D>) -> SQLQueryExpression<Bool>
    where D._Optionalized == Value._Optionalized { lhs.gt(rhs) }

    /// `column <= modified date`
    @_disfavoredOverload
    public static func <= <D>(lhs: Self, rhs: _ModifiedDate<D>) -> SQLQueryExpression<Bool>
    where D._Optionalized == Value._Optionalized { lhs.lte(rhs) }

    /// `column >= modified date`
    @_disfavoredOverload
    public static func >= <D>(lhs: Self, rhs: _ModifiedDate<D>) -> SQLQueryExpression<Bool>
    where D._Optionalized == Value._Optionalized { lhs.gte(rhs) }
}

// The same on a computed date, which is what `map` hands its closure:
// `$0.confirmedAt.map { $0 > .now(.days(-7)) }`.
extension SQLQueryExpression where QueryValue: _SQLiteDateValue {
    /// `date < modified date`
    @_disfavoredOverload
    public static func < <D>(lhs: Self, rhs: _ModifiedDate<D>) -> SQLQueryExpression<Bool>
    where D._Optionalized == QueryValue._Optionalized { lhs.lt(rhs) }

    /// `date > modified date`
    @_disfavoredOverload
    public static func > <D>(lhs: Self, rhs: _ModifiedDate<D>) -> SQLQueryExpression<Bool>
    where D._Optionalized == QueryValue._Optionalized { lhs.gt(rhs) }

    /// `date <= modified date`
    @_disfavoredOverload
    public static func <= <D>(lhs: Self, rhs: _ModifiedDate<D>) -> SQLQueryExpression<Bool>
    where D._Optionalized == QueryValue._Optionalized { lhs.lte(rhs) }

    /// `date >= modified date`
    @_disfavoredOverload
    public static func >= <D>(lhs: Self, rhs: _ModifiedDate<D>) -> SQLQueryExpression<Bool>
    where D._Optionalized == QueryValue._Optionalized { lhs.gte(rhs) }
}

extension _ModifiedDate {
    /// `modified date < modified date`: `$0.dueDate(.days(7)) < .now`.
    public static func < <D>(lhs: Self, rhs: _ModifiedDate<D>) -> SQLQueryExpression<Bool>
    where D._Optionalized == QueryValue._Optionalized { lhs.lt(rhs) }

    /// `modified date > modified date`
    public static func > <D>(lhs: Self, rhs: _ModifiedDate<D>) -> SQLQueryExpression<Bool>
    where D._Optionalized == QueryValue._Optionalized { lhs.gt(rhs) }
}
