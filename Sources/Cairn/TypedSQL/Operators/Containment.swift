// Swift's own spelling of membership, read from the collection's side: `[1, 2].contains($0.id)`,
// `(1...5).contains($0.priority)`, `subquery.contains($0.id)`. StructuredQueries still
// compiles these (it deprecates them in favour of `element.in(…)` and `element.between(…)`),
// so code written against it keeps working here; each is the same SQL as the spelling it flips.

extension Sequence where Element: QueryBindable {
    /// Whether the expression's value is one of these values: `element IN (?, ?, …)`, as
    /// `element.in(self)`; an empty sequence is false.
    ///
    /// ```swift
    /// Reminder.where { [1, 3].contains($0.remindersListID) }
    /// // … WHERE "reminders"."remindersListID" IN (?, ?)
    /// ```
    ///
    /// Disfavoured, so that `[1, 2].contains(3)` stays the standard library's.
    @_disfavoredOverload
    public func contains<Member: QueryExpression>(_ element: Member) -> SQLQueryExpression<Bool>
    where Member.QueryValue == Element {
        element.in(self.lazy.map(\.queryOutput))
    }
}

extension ClosedRange where Bound: QueryBindable {
    /// Whether the expression's value lies within the range, both ends included:
    /// `element BETWEEN ? AND ?`, as `element.between(lowerBound, and: upperBound)`.
    ///
    /// ```swift
    /// Reminder.where { (Priority.medium...Priority.high).contains($0.priority) }
    /// // … WHERE "reminders"."priority" BETWEEN ? AND ?
    /// ```
    @_disfavoredOverload
    public func contains<Member: QueryExpression>(_ element: Member) -> SQLQueryExpression<Bool>
    where Member.QueryValue == Bound {
        element.between(lowerBound.queryOutput, and: upperBound.queryOutput)
    }
}

extension Select {
    /// Whether the expression's value is among the rows this statement selects:
    /// `element IN (SELECT …)`, as `element.in(self)`.
    ///
    /// ```swift
    /// RemindersList.where { Reminder.where(\.isFlagged).select(\.remindersListID).contains($0.id) }
    /// // … WHERE "remindersLists"."id" IN (SELECT "reminders"."remindersListID" FROM …)
    /// ```
    public func contains<Member: QueryExpression>(_ element: Member) -> SQLQueryExpression<Bool>
    where Member.QueryValue: QueryRepresentable {
        element.in(self)
    }
}
