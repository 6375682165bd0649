import CommandLanguage
import Foundation
import Vocabulary
import Sync

/// `sync` and `sync now`: the devices sharing the sync folder, how far each
/// is read, what came in, and what went wrong.
@MainActor
struct SyncViewModel {
    private let syncFeature: SyncFeature
    private let dates: DateText

    init(syncFeature: SyncFeature, timeZone: TimeZone) {
        self.syncFeature = syncFeature
        dates = DateText(timeZone: timeZone)
    }

    /// The devices, and what the automatic syncs did since it was last shown.
    func show(style: TerminalStyle) async throws -> CommandOutput {
        let unshown = try await syncFeature.takeUnshown()
        return CommandOutput(Answer(try await syncFeature.status(), ran: unshown, dates: dates), style: style)
    }

    func syncNow(style: TerminalStyle) async throws -> CommandOutput {
        let report = try await syncFeature.syncNow()
        return CommandOutput(Answer(try await syncFeature.status(), ran: report, dates: dates), style: style)
    }

    /// `sync invite`: the code, and how the other device uses it.
    func invite(style: TerminalStyle) async throws -> CommandOutput {
        let code = try await syncFeature.invite()
        return CommandOutput(Said(key: "invite", value: ["code": code], sentence: Self.joinWith(code)), style: style)
    }

    static func joinWith(_ code: String) -> String {
        "On the device to add, with the same folder set, type:\n  sync join \(code)\n"
            + "The code lets one device join; keep it to yourself until then (it opens the folder's key)."
    }

    /// `sync join CODE`.
    func join(_ code: String, style: TerminalStyle) async throws -> CommandOutput {
        let report = try await syncFeature.join(code: code)
        var output = CommandOutput(Answer(try await syncFeature.status(), ran: report, dates: dates), style: style)
        output.text = "This device is a member of the private sync folder now.\n" + output.text
        return output
    }

    /// `sync devices`: the members.
    func devices(style: TerminalStyle) async throws -> CommandOutput {
        let members = try await syncFeature.members()
        let lines = members.map { member in
            (member.name.isEmpty ? String(member.installation.prefix(8)) : TerminalText.visible(member.name))
                + "  \(member.installation.prefix(8))" + (member.isThisDevice ? "  (this device)" : "")
        }
        let document = JSON.object([("devices", .array(members.map { member in
            .object([("installation", .string(member.installation)), ("name", .string(member.name)), ("thisDevice", .bool(member.isThisDevice))])
        }))])
        return CommandOutput(Said(document, sentence: (["Members of the private sync folder:"] + lines).joined(separator: "\n")), style: style)
    }

    /// `sync remove NAME`.
    func remove(_ name: String, style: TerminalStyle) async throws -> CommandOutput {
        let removed = try await syncFeature.remove(member: name)
        let shown = removed.name.isEmpty ? String(removed.installation.prefix(8)) : TerminalText.visible(removed.name)
        return CommandOutput(Said(.object([("removed", .object([("installation", .string(removed.installation)), ("name", .string(removed.name))]))]),
                                  sentence: "Removed \(shown) from the sync folder: the folder has a new key it does not hold, so it reads nothing "
                                    + "written from now on, and nothing it writes is applied. Its data stays on it."), style: style)
    }

    /// `sync private`.
    func makePrivate(style: TerminalStyle) async throws -> CommandOutput {
        let code = try await syncFeature.makePrivate()
        return CommandOutput(Said(key: "invite", value: ["code": code],
                                  sentence: "The sync folder is private now: what this device writes there is sealed, and only members read it. "
                                    + "Each other device joins with a code (this one lets one device join; 'sync invite' makes more). "
                                    + Self.joinWith(code)), style: style)
    }

    /// One device as scripts read it.
    struct Device: Encodable {
        let installation: String
        let name: String
        let lastChange: String?
        let applied: Int
        let behind: Int
        let received: Int
        let problem: String?
        /// The text only: the last change as a person reads it.
        let local: String?

        enum CodingKeys: String, CodingKey { case installation, name, lastChange, applied, behind, received, problem }

        init(_ device: SyncDevice, dates: DateText) {
            installation = device.installation
            name = device.name
            lastChange = device.lastChange.map(dates.instant)
            applied = device.applied
            behind = device.behind
            received = device.received
            problem = device.problem
            local = device.lastChange.map(dates.local)
        }
    }

    /// What a sync that just ran did.
    struct Ran: Encodable {
        let sent: Int
        let received: Int
        let from: [String]
        /// Changes left out (each named among `problems`).
        let leftOut: Int
        let problems: [String]
        let notes: [String]
    }

    struct Answer: CommandAnswer {
        let folder: String?
        let device: String
        let devices: [Device]
        let unsent: Int
        let notes: [String]
        let failure: String?
        let sync: Ran?

        init(_ status: SyncStatus, ran report: SyncReport?, dates: DateText) {
            folder = status.folder
            device = status.device
            devices = status.devices.map { Device($0, dates: dates) }
            unsent = status.unsent
            notes = status.notes
            failure = status.failure
            sync = report.map { Ran(sent: $0.sent, received: $0.received, from: $0.from, leftOut: $0.leftOut, problems: $0.problems, notes: $0.notes) }
        }

        func text(style: TerminalStyle) -> String {
            guard let folder else {
                return "Sync is off. 'set sync-folder PATH' names a folder Syncthing, Nextcloud or Dropbox moves between your devices;"
                    + " each then writes its changes there and reads the others'."
            }
            var lines = ["Sync folder \(TerminalText.visible(folder)), this device '\(TerminalText.visible(device))'."]
            if let sync {
                var said = "Synced: \(counted(sync.sent, "change")) sent, \(sync.received) received"
                if !sync.from.isEmpty { said += " from " + TerminalText.visible(SyncReport.sentence(from: sync.from)) }
                if sync.leftOut > 0 { said += ", \(sync.leftOut) left out (below)" }
                lines.append(said + ".")
                lines += sync.notes.map { "note: " + TerminalText.visible($0) }
            }
            if devices.isEmpty {
                lines.append("No other device has written here yet.")
            } else {
                lines.append("")
                for device in devices {
                    let name = device.name.isEmpty ? String(device.installation.prefix(8)) : TerminalText.visible(device.name)
                    // "Up to date" is never said: what a device has not written to the folder yet, no one here can know.
                    var line = "\(name)  last heard from \(device.local ?? "never")  \(device.received) \(device.received == 1 ? "row" : "rows") received"
                    line += device.behind > 0 ? style.paint("  \(counted(device.behind, "change")) not read yet", .magenta)
                        : device.problem == nil ? "  every file it wrote is read" : "  its other files are read"
                    lines.append(line)
                    if let problem = device.problem { lines.append("  " + style.paint("problem: ", .magenta) + TerminalText.visible(problem)) }
                }
            }
            if unsent > 0 { lines.append("\(counted(unsent, "change")) of this device wait to be written to the folder.") }
            let problems = (sync?.problems ?? []) + (failure.map { [$0] } ?? [])
            for problem in problems { lines.append(style.paint("warning: ", .magenta) + TerminalText.visible(problem)) }
            // The notes of the syncs since last shown are said above, once; the earlier ones stay in `--json`'s notes.
            return lines.joined(separator: "\n")
        }
    }
}
