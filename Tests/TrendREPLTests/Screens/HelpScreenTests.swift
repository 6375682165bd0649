import Foundation
import Testing
import TestSupport
@testable import TrendREPL

/// The exact text of `help`: HelpViewModel. At a fixed clock, 80 columns, no colour.
@MainActor
@Suite struct HelpScreenTests {
    /// The command list, wrapped to 80 columns.
    @Test func helpListsEveryCommandInEightyColumns() async throws {
        let s = Screen()
        let text = await s.type("help")
        expectScreen(text, [
            "Commands:",
            "  help [COMMAND]              list the commands, or explain one",
            "  weigh WEIGHT [UNIT] [WHEN] [note TEXT]",
            "                              record a weigh-in (WHEN: today, yesterday, YYYY-MM-DD, YYYY-MM-DD HH:MM)",
            "  today                       today's check-in: latest weight, trend, verdict, streak",
            "  progress [RANGE]            the chart and numbers (RANGE: 1w 1m 3m 6m 1y all; the choice is kept)",
            "  goal [WEIGHT|clear]         show, set or clear the goal weight",
            "  entries [RANGE]             list weigh-ins with their ids (RANGE: 1w 1m 3m 6m 1y all; default 1m)",
            "  edit ID WEIGHT              change the weight of an entry (ID: its first characters)",
            "  delete ID                   delete an entry (undo brings it back)",
            "  undo                        take back the last weigh-in, edit or delete of this session",
            "  streak                      the weigh-in streak and this week, Monday to Sunday",
            "  habits                      today's habits: due, done, streaks, strength",
            "  habit add|done|skip|undo|show|rename|archive|unarchive|delete|restore|export …",
            "                              manage one habit (help habit for the forms)",
            "  tip [next]                  today's tip, or another one",
            "  import FILE [preview]       bring in weigh-ins from CSV, Weight Diary, Libra, openScale, Hacker's Diet, Trend or Apple Health files",
            "  export FILE [kg]            write weigh-ins to FILE.csv (your unit, or kg) or FILE.json; FILE-habits.csv writes habits",
            "  backup [status|now|list]    backup status, a snapshot now, or the snapshots you can restore",
            "  restore latest|previous|weekly YYYY-Www|before-restore NAME|sync ID|FILE [merge]",
            "                              replace everything with a snapshot (a copy of what is there is kept first); 'merge' adds instead",
            "  delete-all-data             delete every weigh-in, habit and setting (a snapshot is kept first)",
            "  settings                    show the unit, goal, progress range, sync folder and data directory",
            "  set KEY VALUE               change a setting: unit kg|lb|st, sync-folder PATH|off",
            "  quit                        leave trend (Ctrl-D does the same)",
            "",
            "Type 'help COMMAND' for examples.",
        ])
    }

    @Test func helpForOneCommandShowsItsAliasesAndExamples() async throws {
        let s = Screen()
        let text = await s.type("help weigh")
        expectScreen(text, [
            "weigh WEIGHT [UNIT] [WHEN] [note TEXT]",
            "  record a weigh-in (WHEN: today, yesterday, YYYY-MM-DD, YYYY-MM-DD HH:MM)",
            "  aliases: w, add",
            "  examples:",
            "    weigh 82.4",
            "    weigh 181.6 lb",
            "    weigh 12st 6lb yesterday",
            "    weigh 82.1 2026-11-20 07:15 note after the run",
        ])
    }
}
