// protocol_key_table: prints the RunConfig key table of docs/PROTOCOL.md, checks the document's
// copy, or rewrites it.
//   protocol_key_table                 print the table (Markdown) to stdout
//   protocol_key_table --check FILE    exit 1, naming each key that differs, if FILE's table is
//   stale protocol_key_table --write FILE    replace FILE's table with the generated one
// Exit status 2 for bad arguments or a file without the BEGIN/END markers.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "doc_block.h"
#include "key_table.h"

namespace {

constexpr int kOk = 0, kStale = 1, kBadInput = 2;

bool read_file(const std::string& path, std::string* text) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream buffer;
  buffer << in.rdbuf();
  *text = buffer.str();
  return !in.bad();
}

int usage(const char* program) {
  std::cerr << "usage: " << program << " [--check FILE | --write FILE]\n";
  return kBadInput;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string table = moe::docs::key_table_markdown(moe::docs::key_rows());
  if (argc == 1) {
    std::cout << table;
    return kOk;
  }
  if (argc != 3) return usage(argv[0]);
  const std::string mode = argv[1], path = argv[2];
  if (mode != "--check" && mode != "--write") return usage(argv[0]);

  std::string document;
  if (!read_file(path, &document)) {
    std::cerr << path << ": cannot read the file\n";
    return kBadInput;
  }
  const auto block = moe::docs::extract_block(document);
  if (!block) {
    std::cerr << path << ": needs exactly one line with\n  " << moe::docs::kBeginMarker
              << "\nfollowed by one with\n  " << moe::docs::kEndMarker << "\n";
    return kBadInput;
  }
  if (mode == "--check") {
    const std::string differences = moe::docs::describe_differences(*block, table);
    if (differences.empty()) return kOk;
    std::cerr << path << ": the RunConfig key table is out of date.\n"
              << differences << "Regenerate it with:\n  " << argv[0] << " --write " << path << "\n";
    return kStale;
  }
  const std::string updated = *moe::docs::replace_block(document, table);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << updated;
  out.close();
  if (!out) {
    std::cerr << path << ": cannot write the file\n";
    return kBadInput;
  }
  std::cerr << path << ": RunConfig key table " << (updated == document ? "unchanged" : "updated")
            << "\n";
  return kOk;
}
