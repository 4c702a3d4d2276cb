#include "io/vtk_snapshot.hpp"

#include <vtkDoubleArray.h>
#include <vtkErrorCode.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkImageData.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkXMLImageDataWriter.h>

#include <type_traits>

#include "core/errors.hpp"

namespace heat {

bool built_with_vtk() { return true; }

namespace {
// VTK prints its own error report to stderr; we turn that off around a write and put the reason
// into the RunError instead, so a failure reads like every other heatrk4 error.
struct QuietVtk {
  const bool was_on = vtkObject::GetGlobalWarningDisplay() != 0;
  QuietVtk() { vtkObject::GlobalWarningDisplayOff(); }
  ~QuietVtk() { vtkObject::SetGlobalWarningDisplay(was_on ? 1 : 0); }
};


// The image of planes [z_begin, z_begin + u.nz()) of the whole grid: its file's WholeExtent and
// piece Extent are those planes, as vtkXMLPImageDataWriter writes a piece, so a piece opened alone
// reads as its planes where they lie in the whole.
template <typename T>
void write_image(const std::string& path, const Field<T>& u, const Grid& whole, int z_begin, int step, double time,
                 int compress) {
  using ArrayType = std::conditional_t<std::is_same_v<T, float>, vtkFloatArray, vtkDoubleArray>;
  vtkNew<vtkImageData> image;
  image->SetExtent(0, u.nx() - 1, 0, u.ny() - 1, z_begin, z_begin + u.nz() - 1);
  image->SetSpacing(whole.hx, whole.hy, whole.hz);
  image->SetOrigin(0, 0, 0);

  // VTK's point order is x fastest, like Field's, so the field is handed over without a copy.
  // save = 1: VTK must not free memory it does not own; the writer only reads it.
  vtkNew<ArrayType> values;
  values->SetName("u");
  values->SetArray(const_cast<T*>(u.data()), vtkIdType(u.size()), 1);
  image->GetPointData()->AddArray(values);
  image->GetPointData()->SetActiveScalars("u");

  vtkNew<vtkDoubleArray> time_value;  // the name ParaView reads a file's time from
  time_value->SetName("TimeValue");
  time_value->InsertNextValue(time);
  image->GetFieldData()->AddArray(time_value);
  vtkNew<vtkIntArray> step_value;
  step_value->SetName("step");
  step_value->InsertNextValue(step);
  image->GetFieldData()->AddArray(step_value);

  vtkNew<vtkXMLImageDataWriter> writer;
  writer->SetFileName(path.c_str());
  writer->SetInputData(image);
  writer->SetDataModeToAppended();
  writer->EncodeAppendedDataOff();  // raw bytes: base64 would cost a third more space and time
  if (compress > 0) {
    writer->SetCompressorTypeToZLib();
    writer->SetCompressionLevel(compress);
  } else {
    writer->SetCompressorTypeToNone();
  }
  int ok = 0;
  {
    QuietVtk quiet;
    ok = writer->Write();
  }
  if (!ok || writer->GetErrorCode() != vtkErrorCode::NoError)
    throw RunError("writing " + path + ": vtkXMLImageDataWriter failed: " +
                   vtkErrorCode::GetStringFromErrorCode(writer->GetErrorCode()));
}
}  // namespace

template <typename T>
void write_vti_file(const std::string& path, const Field<T>& u, const Grid& grid, int step, double time, int compress) {
  write_image(path, u, grid, 0, step, time, compress);
}

template <typename T>
void write_vti_piece_file(const std::string& path, const Field<T>& planes, const Grid& whole, int z_begin, int step,
                          double time, int compress) {
  write_image(path, planes, whole, z_begin, step, time, compress);
}

template void write_vti_file<float>(const std::string&, const Field<float>&, const Grid&, int, double, int);
template void write_vti_file<double>(const std::string&, const Field<double>&, const Grid&, int, double, int);
template void write_vti_piece_file<float>(const std::string&, const Field<float>&, const Grid&, int, int, double, int);
template void write_vti_piece_file<double>(const std::string&, const Field<double>&, const Grid&, int, int, double,
                                           int);

}  // namespace heat
