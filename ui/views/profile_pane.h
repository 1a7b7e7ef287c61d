// The profile pane: per case the timed samples of baseline and kernel (their distribution), the speedup with its
// interval, the memory-bound floor and the kernel's position against it (HAP), and a device profiler's counters
// where the device has one.
#pragma once

#include <QWidget>

#include <map>
#include <string>

#include "kope/model/report.h"
#include "models/models.h"

class QGroupBox;
class QLabel;
class QListView;
class QTextBrowser;

namespace kope::ui {

class ChartPanel;

class ProfilePane : public QWidget {
  Q_OBJECT
 public:
  // Shows the cases of `cases` (the test pane's model).
  explicit ProfilePane(CaseModel* cases, QWidget* parent = nullptr);

  void selectCase(int row);
  int currentCase() const;
  // A device profiler's counters for the current case; empty hides the section.
  void setCounters(const std::map<std::string, double>& counters);
  ChartPanel* chart() const { return chart_; }
  QLabel* details() const { return details_; }
  QGroupBox* counters() const { return counters_; }
  void retranslate();

 private:
  void show(int row);
  CaseModel* cases_ = nullptr;
  QListView* list_ = nullptr;
  ChartPanel* chart_ = nullptr;
  QLabel* details_ = nullptr;
  QGroupBox* counters_ = nullptr;
  QTextBrowser* counters_text_ = nullptr;
};

}  // namespace kope::ui
