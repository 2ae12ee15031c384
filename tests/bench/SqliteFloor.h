#pragma once
// What SQLite itself costs per row, measured apart from the model (issue #31): a virtual table that does
// the least a virtual table can do, over two plain arrays already in name order (a pointer and length per
// name, a duration), on its own in-memory connection. The same group-by over it is the floor of any
// virtual table: what remains is SQLite's virtual machine (the loop, the xColumn calls, the group-key
// compare, the aggregate steps).
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

struct sqlite3;

namespace at::bench {

class SqliteFloor
{
public:
    // Rows must already be in name order (names compared as bytes), as the slice table's by-name walk gives.
    SqliteFloor(std::vector<std::string_view> names, std::vector<std::int64_t> durations);
    ~SqliteFloor();
    SqliteFloor(const SqliteFloor &) = delete;
    SqliteFloor &operator=(const SqliteFloor &) = delete;

    // Runs one statement over the table `floor` (columns name, dur) to the end; the number of result rows,
    // or -1 on an error.
    std::int64_t run(const char *sql);

    struct Data; // the arrays (what the module's xConnect receives)

private:
    std::unique_ptr<Data> m_data;
    sqlite3 *m_db = nullptr;
};

} // namespace at::bench
