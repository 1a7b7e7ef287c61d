// No English in the Chinese window: with the zh_CN translation installed, the window is built with every dock
// and tab shown (the run controller with its monitor, the experience graph with its filters, legend, tabs,
// buttons and a selected Case, what the agent was shown for a recorded LLM attempt, the machine check dialog),
// every visible widget is walked, and each visible string that still holds an English word is listed. The same
// walk in the source language must find English everywhere, so the walk itself is known to look.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QProgressBar>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextDocument>
#include <QToolBar>
#include <QToolButton>
#include <QTreeWidget>

#include <functional>
#include <map>
#include <set>

#include "agentview/agent_view.h"
#include "doctor/doctor_dialog.h"
#include "graph/graph_widget.h"
#include "i18n.h"
#include "llm/llm_settings_dialog.h"
#include "kope/agent/store.h"
#include "kope/memory/memory.h"
#include "kope/model/suite.h"
#include "kope/workspace/workspace.h"
#include "main_window.h"
#include "test_support.h"

using namespace kope;
using namespace kope::ui;

namespace {

bool waitFor(const std::function<bool()>& done, int ms = 60000) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > ms) return false;
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  return true;
}

void settle() {
  for (int i = 0; i < 5; ++i) QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
}

// What the test records or types, shown as it is in any language: an LLM attempt's provider, model and the
// server's finish reason; the word searched for.
const char* kProvider = "openai";
const char* kModel = "gpt-test";
const char* kFinish = "stop";
const char* kSearched = "Pade";

// Words a Chinese kernel engineer reads as they are, each with its reason. Compared lower-cased.
const std::set<QString>& allowedWords() {
  static const std::set<QString> words = {
      "kope",                                                    // the product
      "cpu", "gpu", "npu", "cuda", "ascend", "aten",             // devices and vendor libraries
      "json", "png", "svg", "graphml",                           // file formats
      "llm", "token", "tokens", "hap",                           // terms the zh_CN file keeps (see its "Token 预算")
      "api", "url",                                              // terms of the LLM profiles ("API 密钥", "基础 URL")
      "openai", "anthropic",                                     // the model vendors whose protocols kope speaks
      "seccomp", "bubblewrap", "cgroups", "smt", "perf",         // Linux mechanisms and tools the doctor names
      "dot", "sfdp", "forest",                                   // the graph's layout engines, by name
      "mib", "kib", "gib",                                       // units
      "offline", "off", "dump", "active",                        // values of --policy and --memory, typed as such
  };
  return words;
}

// The English words of a visible string, after taking out what is technical by its form: command lines and
// options, paths and file names, shortcuts, task and kernel names.
class EnglishFinder {
 public:
  explicit EnglishFinder(const Suite& suite) {
    for (const Task& t : suite.tasks()) names_.insert(QString::fromStdString(t.name));
    for (const char* recorded : {kProvider, kModel, kFinish, kSearched}) names_.insert(recorded);
  }

  QStringList words(QString s) const {
    static const QRegularExpression spans[] = {
        QRegularExpression(R"(kope(-[a-z]+)?( (doctor|run|eval|memory|study|compare))?)"),  // commands
        QRegularExpression(R"(--[a-z][a-z-]*)"),                                            // their options
        QRegularExpression(R"(\S*[/\\]\S*)"),                                               // paths
        QRegularExpression(R"(\S+\.(cpp|cc|cxx|cu|c|h|png|svg|graphml|json|db|so|txt)\b)"),  // file names
        QRegularExpression(R"(\*\.\w+)"),                                                   // file patterns
        QRegularExpression(R"(\b(Ctrl|Shift|Alt|Esc|Del|Delete|F\d+)\b)"),                 // shortcuts
        QRegularExpression(R"(\b[a-z]+(:[0-9,-]+)+)"),                                      // device specs
        QRegularExpression(R"(\bfast_\d+\b)"),                                                // the method's metric, by name
        QRegularExpression(R"(\b(Chat Completions|Messages) API\b)"),                      // the protocols, by name
        QRegularExpression(R"(\$[A-Z_][A-Z0-9_]*)"),                                        // environment variables
    };
    for (const auto& re : spans) s.replace(re, " ");
    static const QRegularExpression token(R"([A-Za-z0-9_.+-]+)");
    static const QRegularExpression word(R"([A-Za-z]{3,})");
    QStringList out;
    for (auto t = token.globalMatch(s); t.hasNext();) {
      const QString tok = t.next().captured();
      if (names_.count(tok)) continue;
      for (auto w = word.globalMatch(tok); w.hasNext();) {
        const QString x = w.next().captured();
        if (!allowedWords().count(x.toLower())) out << x;
      }
    }
    return out;
  }

 private:
  std::set<QString> names_;
};

QString plainText(const QString& s, Qt::TextFormat format) {
  if (format == Qt::RichText || (format == Qt::AutoText && Qt::mightBeRichText(s))) {
    QTextDocument d;
    d.setHtml(s);
    return d.toPlainText();
  }
  return s;
}

// The machine check's findings ("  - kernels are built by c++ ...") are the engine's own sentences, the ones
// `kope doctor` prints, listed under the window's translated headings: measured text, not the window's words.
QString withoutFindings(const QString& s) {
  QStringList kept;
  for (const QString& line : s.split('\n'))
    if (!line.startsWith(QLatin1String("  - "))) kept << line;
  return kept.join('\n');
}

// Who a widget is, for the failure message: its class and object name, and its named ancestors.
QString where(const QObject* o) {
  QStringList chain;
  for (; o; o = o->parent())
    if (!o->objectName().isEmpty() || chain.isEmpty())
      chain.prepend(QString::fromLatin1(o->metaObject()->className()) +
                    (o->objectName().isEmpty() ? QString() : "#" + o->objectName()));
  return chain.join(" > ");
}

// Walks what a person sees and keeps each string with English in it (by text, with where it was first seen).
class Walker {
 public:
  explicit Walker(const EnglishFinder& finder) : finder_(finder) {}

  void text(const QString& s, const QString& at) {
    const QString t = QString(s).remove('&').trimmed();
    if (t.isEmpty() || found_.count(t)) return;
    const QStringList w = finder_.words(t);
    if (!w.isEmpty()) found_[t] = at + "  [" + w.join(", ") + "]";
  }

  void actions(const QList<QAction*>& acts, const QString& at) {
    for (QAction* a : acts) {
      if (a->isSeparator()) continue;
      text(a->text(), at + " action");
      if (a->menu()) menu(a->menu(), at);
    }
  }

  void menu(QMenu* m, const QString& at) {
    text(m->title(), at + " menu");
    actions(m->actions(), at + " > " + m->title().remove('&'));
  }

  void itemView(QAbstractItemView* v, const QString& at) {
    QAbstractItemModel* m = v->model();
    if (!m) return;
    auto* tree = qobject_cast<QTreeView*>(v);
    auto* table = qobject_cast<QTableView*>(v);
    QHeaderView* h = tree ? tree->header() : table ? table->horizontalHeader() : nullptr;
    if (h && !h->isHidden())
      for (int c = 0; c < m->columnCount(); ++c)
        if (!h->isSectionHidden(c)) text(m->headerData(c, Qt::Horizontal).toString(), at + " header");
    // A tree's top-level rows are its groups (the agent view's tiers): words of the window, not recorded data.
    if (auto* tw = qobject_cast<QTreeWidget*>(v))
      for (int i = 0; i < tw->topLevelItemCount(); ++i) text(tw->topLevelItem(i)->text(0), at + " group");
  }

  // Every visible widget at or below `top`.
  void sweep(QWidget* top) {
    text(top->windowTitle(), where(top) + " title");
    QList<QWidget*> all = top->findChildren<QWidget*>();
    all.prepend(top);
    for (QWidget* w : all) {
      if (!w->isVisible()) continue;
      const QString at = where(w);
      if (auto* l = qobject_cast<QLabel*>(w)) text(withoutFindings(plainText(l->text(), l->textFormat())), at);
      if (auto* b = qobject_cast<QAbstractButton*>(w)) {
        text(b->text(), at);
        text(b->toolTip(), at + " tooltip");
        if (auto* tb = qobject_cast<QToolButton*>(w); tb && tb->menu()) menu(tb->menu(), at);
      }
      if (auto* g = qobject_cast<QGroupBox*>(w)) text(g->title(), at);
      if (auto* d = qobject_cast<QDockWidget*>(w)) text(d->windowTitle(), at + " title");
      if (auto* t = qobject_cast<QTabBar*>(w))
        for (int i = 0; i < t->count(); ++i) text(t->tabText(i), at + " tab");
      if (auto* c = qobject_cast<QComboBox*>(w)) {
        // An entry shown as its own value is a recorded one (a task, an idea tag the memory found, a run): data,
        // not the window's words. An entry with no value ("all tasks") or shown otherwise than its value is.
        for (int i = 0; i < c->count(); ++i)
          if (c->itemData(i).toString().isEmpty() || c->itemData(i).toString() != c->itemText(i))
            text(c->itemText(i), at + " item");
        text(c->toolTip(), at + " tooltip");
      }
      if (auto* e = qobject_cast<QLineEdit*>(w)) text(e->placeholderText(), at + " placeholder");
      if (auto* p = qobject_cast<QProgressBar*>(w)) text(p->text(), at);
      if (auto* s = qobject_cast<QSpinBox*>(w)) {
        text(s->specialValueText(), at);
        text(s->prefix() + s->suffix(), at);
      }
      if (auto* v = qobject_cast<QAbstractItemView*>(w)) itemView(v, at);
      if (auto* tb = qobject_cast<QToolBar*>(w)) actions(tb->actions(), at);
      if (auto* mb = qobject_cast<QMenuBar*>(w)) actions(mb->actions(), at);
    }
  }

  const std::map<QString, QString>& found() const { return found_; }
  std::string report() const {
    std::string r;
    for (const auto& [t, at] : found_) r += "  \"" + t.toStdString() + "\"  at " + at.toStdString() + "\n";
    return r;
  }

 private:
  const EnglishFinder& finder_;
  std::map<QString, QString> found_;
};

// Recorded Cases (lineage, an incorrect one) for the graph, and an LLM attempt's transcript for the agent view.
struct Recorded {
  int64_t caseId = 0, attemptId = 0;
};

Recorded record(const std::filesystem::path& dir) {
  Recorded r;
  workspace::Workspace ws = workspace::Workspace::open(dir);
  memory::MemoryStore::ensure_schema(ws.handle());
  memory::MemoryStore m(ws.handle());
  auto mk = [](std::optional<int64_t> prev, bool correct, double a, int64_t step) {
    memory::CaseInput in;
    in.task = "gelu";
    in.task_digest = "digest-gelu";
    in.device = "cpu";
    in.thought = "Pade approximation of tanh";
    in.kernel_sha256 = "sha" + std::to_string(step);
    in.kernel_name = "gelu_" + std::to_string(step) + ".cpp";
    in.prev_case_id = prev;
    in.correct = correct;
    in.compiled = true;
    in.status = correct ? "passed" : "wrong";
    in.a = correct ? a : 0;
    in.c = 0.9;
    in.run_id = 1;
    in.step = step;
    in.diff = "--- a/k.cpp\n+++ b/k.cpp\n@@ -1 +1 @@\n-a\n+b\n";
    return in;
  };
  const int64_t root = m.add_case(mk(std::nullopt, true, 1.4, 1));
  m.add_case(mk(root, false, 0, 2));
  r.caseId = m.add_case(mk(root, true, 1.6, 3));

  agent::AgentStore a = agent::AgentStore::open(dir);
  agent::AttemptHeader h;
  h.run_id = 1;
  h.task = "gelu";
  h.device = "cpu";
  h.iteration = 2;
  h.profile = "test";
  h.provider = kProvider;
  h.model = kModel;
  h.arm = "active";
  agent::Prompt p;
  p.budget.budget = 6000;
  auto section = [](const char* name, agent::Tier tier, const char* kind, int64_t id, int64_t tokens) {
    agent::Section s;
    s.name = name;
    s.tier = tier;
    s.source_kind = kind;
    s.source_id = id;
    s.label = name;
    s.tokens = tokens;
    return s;
  };
  p.sections = {section("spec", agent::Tier::Hot, "task", 0, 600), section("experience", agent::Tier::Warm, "case", r.caseId, 700),
                section("doc", agent::Tier::Cold, "doc", 0, 200)};
  p.left_out = {section("experience", agent::Tier::Warm, "failure", root, 900)};
  r.attemptId = a.begin_attempt(h, p);
  agent::ExchangeRecord x;
  x.answer = "use a Pade approximant";
  x.finish_reason = kFinish;
  x.prompt_tokens = 1850;
  x.completion_tokens = 420;
  x.usage_from_server = true;
  x.latency_s = 3.5;
  x.cost = 0.0123;
  a.record_exchange(r.attemptId, x);
  a.set_status(r.attemptId, "candidate");
  return r;
}

// The window with every dock and tab shown in turn, walked in each state; then the machine check dialog.
class WindowWalk : public ::testing::Test {
 protected:
  test::TempDir dir;
  Suite suite = Suite::embedded();

  void SetUp() override {
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, QString::fromStdString((dir / "settings").string()));
  }

  void walk(Walker& walker) {
    const Recorded rec = record(dir / "ws");
    MainWindow w(suite, dir / "ws");
    w.resize(1440, 900);
    w.show();
    ASSERT_TRUE(w.selectTask("gelu"));
    settle();
    auto* graph = qobject_cast<graph::GraphWidget*>(w.graphDock()->widget());
    ASSERT_NE(graph, nullptr);
    graph->setPollInterval(0);
    ASSERT_TRUE(graph->waitForLayout(60000));

    w.runDock()->raise();
    settle();
    walker.sweep(&w);
    for (int i = 0; i < w.tabs()->count(); ++i) {
      w.tabs()->setCurrentIndex(i);
      settle();
      walker.sweep(&w);
    }
    w.graphDock()->raise();
    graph->selectCase(rec.caseId);
    graph->agentView()->showAttempt(rec.attemptId);
    auto* side = graph->findChild<QTabWidget*>("graph-side");
    ASSERT_NE(side, nullptr);
    for (int i = 0; i < side->count(); ++i) {
      side->setCurrentIndex(i);
      settle();
      walker.sweep(&w);
    }
    walker.actions(graph->view()->actions(), where(graph->view()) + " context menu");
    graph->search(kSearched);
    settle();
    walker.sweep(graph);

    w.showMachineCheck();
    DoctorDialog* doctor = w.doctorDialog();
    ASSERT_NE(doctor, nullptr);
    ASSERT_TRUE(waitFor([&] { return !doctor->running(); }));
    settle();
    walker.sweep(doctor);
    doctor->close();

    // Settings > LLM profiles over a settings file of one profile on this machine.
    setenv("XDG_CONFIG_HOME", (dir / "cfg").c_str(), 1);
    test::write_text(dir / "cfg" / "kope" / "llm.json",
                     R"({"profiles": {"local": {"provider": "openai", "base_url": "http://127.0.0.1:9/v1", "model": "m"}}})");
    w.showLlmSettings();
    LlmSettingsDialog* llm = w.llmSettingsDialog();
    ASSERT_NE(llm, nullptr);
    bool keyShown = false;
    QObject::connect(llm, &LlmSettingsDialog::keyStatusShown, llm, [&] { keyShown = true; });
    ASSERT_TRUE(waitFor([&] { return keyShown; }));
    settle();
    walker.sweep(llm);
    llm->close();
  }
};

}  // namespace

TEST_F(WindowWalk, NoVisibleStringIsEnglishInChinese) {
  ASSERT_TRUE(install_translation(*QCoreApplication::instance(), "zh_CN"));
  EnglishFinder finder(suite);
  Walker walker(finder);
  walk(walker);
  EXPECT_TRUE(walker.found().empty()) << walker.found().size() << " visible strings are English under zh_CN "
                                      << "(mark them with tr(), run the kope_ui_lupdate target, translate):\n"
                                      << walker.report();
  install_translation(*QCoreApplication::instance(), "en");
}

// The walk reaches every part named above: in the source language it finds their English.
TEST_F(WindowWalk, TheWalkFindsEnglishInTheSourceLanguage) {
  install_translation(*QCoreApplication::instance(), "en");
  EnglishFinder finder(suite);
  Walker walker(finder);
  walk(walker);
  const auto& f = walker.found();
  for (const char* s : {"Run controller", "Experience graph", "Start run", "Tasks in flight", "Fit", "Export",
                        "all tasks", "Open in editor", "What the agent was shown", "Machine check", "Refresh",
                        "Prune subtree…", "View as PNG…", "Test connection", "Add profile"})
    EXPECT_TRUE(f.count(s)) << "the walk did not see \"" << s << "\"; it saw:\n" << walker.report();
  EXPECT_GT(f.size(), 100u);
}

TEST(EnglishFinder, KeepsTechnicalTokensAndFindsWords) {
  EnglishFinder f(Suite::embedded());
  EXPECT_TRUE(f.words(QString::fromUtf8("设备池（kope run --device）：cuda:0,1 与 CPU")).isEmpty());
  EXPECT_TRUE(f.words(QString::fromUtf8("已打开 /tmp/x/gelu_2.cpp · swi_glu · 12 ms · fp32")).isEmpty());
  EXPECT_TRUE(f.words(QString::fromUtf8("编译 (Ctrl+R)")).isEmpty());
  EXPECT_EQ(f.words("Fit the graph (F)"), QStringList({"Fit", "the", "graph"}));
  EXPECT_EQ(f.words(QString::fromUtf8("任务 all tasks")), QStringList({"all", "tasks"}));
}

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName("KopeTest");
  QApplication::setApplicationName("kope-ui-i18n-test");
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
