import GRDB

/// The visible part of a results list — the rows inside the request's offset and limit — cut
/// into sections, with index paths for positions.
struct SectionLayout {
    struct Section {
        var name: String
        var indexTitle: String?
        /// The visible index of the section's first row.
        var start: Int
        var count: Int
    }

    /// The visible rows as indices of the whole list.
    var window: Range<Int>
    var sections: [Section]

    static let empty = SectionLayout(window: 0..<0, sections: [])

    /// The layout of `list` inside the offset and limit (0: none); without runs, one section that
    /// holds every visible row, as Core Data has without a section key path.
    init(_ list: ResultsList, offset: Int, limit: Int, indexTitle: (String) -> String?) {
        let lower = min(offset, list.count)
        let upper = limit > 0 ? min(list.count, lower + limit) : list.count
        window = lower..<upper
        guard !list.runs.isEmpty else {
            sections = [Section(name: "", indexTitle: nil, start: 0, count: upper - lower)]
            return
        }
        sections = []
        var start = 0
        for run in list.runs {
            let first = max(start, lower), end = min(start + run.count, upper)
            if first < end {
                sections.append(Section(name: run.name, indexTitle: indexTitle(run.name), start: first - lower, count: end - first))
            }
            start += run.count
        }
    }

    init(window: Range<Int>, sections: [Section]) {
        self.window = window
        self.sections = sections
    }

    var count: Int { window.count }

    /// The section holding visible row `index`.
    func sectionIndex(ofVisible index: Int) -> Int {
        var low = 0, high = sections.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if sections[middle].start <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }

    func indexPath(ofVisible index: Int) -> ResultsIndexPath {
        let section = sectionIndex(ofVisible: index)
        return ResultsIndexPath(item: index - sections[section].start, section: section)
    }

    /// The visible index of `indexPath`, if the layout has it.
    func visibleIndex(of indexPath: ResultsIndexPath) -> Int? {
        guard sections.indices.contains(indexPath.section), (0..<sections[indexPath.section].count).contains(indexPath.item) else { return nil }
        return sections[indexPath.section].start + indexPath.item
    }

    func sectionName(ofVisible index: Int) -> String {
        sections[sectionIndex(ofVisible: index)].name
    }
}
