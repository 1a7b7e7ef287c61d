// A table model over a vector of engine value types: rows are values, columns say how to show them. Each
// concrete model supplies its headers and cells; tests read the roles, never the painted text.
#pragma once

#include <QAbstractTableModel>
#include <QVector>

#include <vector>

namespace kope::ui {

// Roles every model answers beside DisplayRole: the raw value (a number, or a string for statuses) for sorting
// and for tests, and the full text where the cell shows an abbreviation.
enum ModelRole : int {
  RawRole = Qt::UserRole + 1,  // the value behind the cell: double, qlonglong, bool, QString
  FullTextRole,                // the whole message for a cell that is cut
  StatusRole,                  // the engine's status word (passed, wrong, running, ...)
  IdRole,                      // the row's workspace id (evaluation, kernel, run), where it has one
  KernelIdRole,
  LineRole,
  ColumnRole,
};

template <typename T>
class RowModel : public QAbstractTableModel {
 public:
  using QAbstractTableModel::QAbstractTableModel;

  int rowCount(const QModelIndex& parent = {}) const override {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
  }
  int columnCount(const QModelIndex& parent = {}) const override { return parent.isValid() ? 0 : columns(); }
  QVariant headerData(int section, Qt::Orientation o, int role) const override {
    if (o != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= columns()) return {};
    return header(section);
  }
  QVariant data(const QModelIndex& index, int role) const override {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
    return cell(rows_[static_cast<std::size_t>(index.row())], index.column(), role);
  }

  void setRows(std::vector<T> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
  }
  void append(T row) {
    const int n = rowCount();
    beginInsertRows({}, n, n);
    rows_.push_back(std::move(row));
    endInsertRows();
  }
  void replace(int row, T value) {
    rows_[static_cast<std::size_t>(row)] = std::move(value);
    emit dataChanged(index(row, 0), index(row, columns() - 1));
  }
  void clear() { setRows({}); }
  const T& at(int row) const { return rows_.at(static_cast<std::size_t>(row)); }
  const std::vector<T>& rows() const { return rows_; }
  // Headers change with the language.
  void retranslate() { emit headerDataChanged(Qt::Horizontal, 0, columns() - 1); }

 protected:
  // A row changed in place, for rows that change often and hold much (a streamed reply): the caller says what
  // changed with dataChanged.
  T& rowRef(int row) { return rows_.at(static_cast<std::size_t>(row)); }
  virtual int columns() const = 0;
  virtual QString header(int column) const = 0;
  virtual QVariant cell(const T& row, int column, int role) const = 0;

 private:
  std::vector<T> rows_;
};

}  // namespace kope::ui
