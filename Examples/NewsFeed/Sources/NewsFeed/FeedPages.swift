import Foundation

/// Two pages of the feed, as the server would send them: the second repeats two articles, with
/// a corrected headline and summary, and adds one.
enum FeedPages {
    static let first = Data("""
        [
          {"id": "swift-6-3", "title": "  Swift 6.3 released \\n", "summary": "Faster builds.", "published": "2026-11-20T09:00:00Z", "source": "Swift.org"},
          {"id": "sqlite-3-51", "title": "SQLite 3.51", "summary": "JSON improvements.", "published": "2026-11-18T12:00:00Z", "source": "SQLite News"},
          {"id": "swift-testing", "title": "Swift Testing tips", "published": "2026-11-15T08:30:00Z", "source": "Swift.org"},
          {"id": "postgres-18", "title": "PostgreSQL 18.1", "summary": "Bug fixes.", "published": "2026-11-14T16:00:00Z", "source": "PostgreSQL"}
        ]
        """.utf8)

    static let second = Data("""
        [
          {"id": "swift-6-3", "title": "Swift 6.3 released, with notes", "summary": "Faster builds, fewer warnings.", "published": "2026-11-20T09:00:00Z", "source": "Swift.org"},
          {"id": "sqlite-3-51", "title": "SQLite 3.51.1", "summary": "A patch release.", "published": "2026-11-18T12:00:00Z", "source": "SQLite News"},
          {"id": "swift-7", "title": "Swift 7 announced", "published": "2026-11-25T10:00:00Z", "source": "Swift.org"}
        ]
        """.utf8)
}
